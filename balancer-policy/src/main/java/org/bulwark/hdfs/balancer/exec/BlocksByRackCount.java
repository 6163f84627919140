package org.bulwark.hdfs.balancer.exec;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;

/**
 * How many blocks span 1, 2, 3... racks, over every namespace: a listing with locations (batched
 * like {@code ls -R}), made only when {@code -report} asks for it, once before and once after.
 */
final class BlocksByRackCount {
  private BlocksByRackCount() {
  }

  static SortedMap<Integer, Long> count(List<NameNodeConnector> pools, Path skip) throws IOException {
    SortedMap<Integer, Long> counts = new TreeMap<>();
    for (NameNodeConnector pool : pools) {
      DistributedFileSystem fs = pool.getDistributedFileSystem();
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(new Path("/"), true);
      while (files.hasNext()) {
        LocatedFileStatus file = files.next();
        if (Path.getPathWithoutSchemeAndAuthority(file.getPath()).equals(skip)) {
          continue;
        }
        for (BlockLocation block : file.getBlockLocations()) {
          Set<String> racks = new HashSet<>();
          for (String path : block.getTopologyPaths()) {
            racks.add(path.substring(0, Math.max(0, path.lastIndexOf('/'))));
          }
          counts.merge(racks.size(), 1L, Long::sum);
        }
      }
    }
    return counts;
  }
}
