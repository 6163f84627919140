package org.bulwark.hdfs.placement;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.bulwark.hdfs.placement.rules.RackFill;

/** Every block under a directory with the rack of each of its replicas, for checking invariants. */
record BlockRacks(Path file, long offset, List<String> racks, List<String> hosts) {

  static List<BlockRacks> under(FileSystem fs, Path dir) throws IOException {
    List<BlockRacks> out = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      LocatedFileStatus f = files.next();
      for (BlockLocation b : f.getBlockLocations()) {
        List<String> racks = new ArrayList<>();
        for (String t : b.getTopologyPaths()) {
          racks.add(t.substring(0, t.lastIndexOf('/')));
        }
        out.add(new BlockRacks(f.getPath(), b.getOffset(), racks, List.of(b.getNames())));
      }
    }
    return out;
  }

  long distinctRacks() {
    return racks.stream().distinct().count();
  }

  /** Distinct racks of the replicas other than the one on {@code xferAddr}. */
  long distinctRacksWithout(String xferAddr) {
    Set<String> racksLeft = new HashSet<>();
    for (int i = 0; i < hosts.size(); i++) {
      if (!hosts.get(i).equals(xferAddr)) {
        racksLeft.add(racks.get(i));
      }
    }
    return racksLeft.size();
  }

  /** Replicas per rack. */
  Map<String, Integer> perRack() {
    Map<String, Integer> m = new HashMap<>();
    racks.forEach(r -> m.merge(r, 1, Integer::sum));
    return m;
  }

  /** Distinct datacenters of the replicas, as the policies define a rack's datacenter. */
  long distinctDatacenters() {
    return racks.stream().map(RackFill::datacenterOf).distinct().count();
  }
}
