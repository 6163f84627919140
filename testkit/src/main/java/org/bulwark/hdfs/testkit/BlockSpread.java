package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * How the blocks under a directory are spread: how many blocks have replicas on 1, 2, 3... racks and
 * datacenters, and how many replicas each rack holds. Read with one batched listing that carries
 * block locations, as a client sees them.
 *
 * @param blocks number of blocks
 * @param blocksByRackCount number of blocks keyed by the number of distinct racks holding them
 * @param blocksByDatacenterCount number of blocks keyed by the number of distinct datacenters
 * @param replicasByRack number of replicas on each rack
 */
public record BlockSpread(long blocks, SortedMap<Integer, Long> blocksByRackCount,
    SortedMap<Integer, Long> blocksByDatacenterCount, SortedMap<String, Long> replicasByRack) {

  public static BlockSpread of(FileSystem fs, Path dir) throws IOException {
    long blocks = 0;
    SortedMap<Integer, Long> byRacks = new TreeMap<>();
    SortedMap<Integer, Long> byDcs = new TreeMap<>();
    SortedMap<String, Long> perRack = new TreeMap<>();
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      for (BlockLocation block : files.next().getBlockLocations()) {
        Set<String> racks = new HashSet<>();
        Set<String> dcs = new HashSet<>();
        for (String topologyPath : block.getTopologyPaths()) {
          String rack = topologyPath.substring(0, topologyPath.lastIndexOf('/'));
          racks.add(rack);
          dcs.add(new TopologySpec.Rack(rack, 1, 0).datacenter());
          perRack.merge(rack, 1L, Long::sum);
        }
        blocks++;
        byRacks.merge(racks.size(), 1L, Long::sum);
        byDcs.merge(dcs.size(), 1L, Long::sum);
      }
    }
    return new BlockSpread(blocks, byRacks, byDcs, perRack);
  }

  /** Blocks whose replicas sit on exactly {@code racks} racks. */
  public long blocksOnRacks(int racks) {
    return blocksByRackCount.getOrDefault(racks, 0L);
  }

  /** The fewest racks any block is on (0 when a block has no live replica; -1 when there are no blocks). */
  public int minRacks() {
    return blocksByRackCount.isEmpty() ? -1 : blocksByRackCount.firstKey();
  }

  /** A short, readable summary: "120 blocks: 1 rack 0, 2 racks 96, 3 racks 24; 1 DC 70, 2 DCs 50". */
  public String summary() {
    return blocks + " blocks: " + line(blocksByRackCount, "rack") + "; " + line(blocksByDatacenterCount, "DC");
  }

  private static String line(Map<Integer, Long> counts, String unit) {
    StringBuilder sb = new StringBuilder();
    counts.forEach((n, c) -> sb.append(sb.length() == 0 ? "" : ", ")
        .append(n).append(' ').append(unit).append(n == 1 ? "" : "s").append(' ').append(c));
    return sb.length() == 0 ? "none" : sb.toString();
  }
}
