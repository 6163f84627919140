package org.bulwark.hdfs.balancer.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;

/**
 * Every block's replica holders, read from the NameNodes: two of them, before and after a
 * balancer run, tell how many replicas moved and how many moves added a rack, whichever
 * balancer made them (the same measure for the stock policies and ours).
 */
final class LayoutDiff {
  private final Map<String, long[]> sizes = new HashMap<>();
  private final Map<String, Set<String>> holders = new HashMap<>();
  private final Map<String, Integer> racks = new HashMap<>();

  static LayoutDiff read(BulwarkMiniCluster c) throws IOException {
    LayoutDiff d = new LayoutDiff();
    for (int ns = 0; ns < c.nameservices().size(); ns++) {
      RemoteIterator<LocatedFileStatus> it = c.fs(ns).listFiles(new Path("/data"), true);
      while (it.hasNext()) {
        LocatedFileStatus f = it.next();
        BlockLocation[] blocks = f.getBlockLocations();
        for (int b = 0; b < blocks.length; b++) {
          String key = ns + ":" + f.getPath().toUri().getPath() + "#" + b;
          Set<String> rackSet = new HashSet<>();
          for (String t : blocks[b].getTopologyPaths()) {
            rackSet.add(t.substring(0, t.lastIndexOf('/')));
          }
          d.sizes.put(key, new long[] {blocks[b].getLength()});
          d.holders.put(key, new HashSet<>(java.util.Arrays.asList(blocks[b].getNames())));
          d.racks.put(key, rackSet.size());
        }
      }
    }
    return d;
  }

  Map<String, Object> blocksByRackCount() {
    Map<Integer, Long> counts = new TreeMap<>();
    racks.values().forEach(r -> counts.merge(r, 1L, Long::sum));
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    counts.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }

  /** Replica bytes on the DataNode at {@code ipAddress}, as the NameNodes place them. */
  long bytesOn(String ipAddress) {
    long bytes = 0;
    for (String block : blocksOn(ipAddress)) {
      bytes += sizes.get(block)[0];
    }
    return bytes;
  }

  /** The blocks with a replica on the DataNode at {@code ipAddress} (any transfer port). */
  Set<String> blocksOn(String ipAddress) {
    Set<String> blocks = new TreeSet<>();
    holders.forEach((block, names) -> {
      for (String name : names) {
        if (name.startsWith(ipAddress + ":")) {
          blocks.add(block);
        }
      }
    });
    return blocks;
  }

  /** The blocks that sit on fewer racks in {@code after} than here, each with its two rack counts. */
  List<String> racksLowered(LayoutDiff after) {
    List<String> lowered = new ArrayList<>();
    racks.forEach((block, before) -> {
      Integer now = after.racks.get(block);
      if (now != null && now < before) {
        lowered.add(block + " " + before + " -> " + now + " racks");
      }
    });
    return lowered;
  }

  /** {moves, moves adding a rack, bytes moved} from this layout to {@code after}. */
  long[] movesTo(LayoutDiff after) {
    long moves = 0;
    long adding = 0;
    long bytes = 0;
    for (Map.Entry<String, Set<String>> e : holders.entrySet()) {
      Set<String> now = after.holders.get(e.getKey());
      if (now == null) {
        continue;
      }
      Set<String> added = new HashSet<>(now);
      added.removeAll(e.getValue());
      int blockMoves = added.size();
      int rackGain = Math.max(0, after.racks.get(e.getKey()) - racks.get(e.getKey()));
      moves += blockMoves;
      adding += Math.min(blockMoves, rackGain);
      bytes += blockMoves * sizes.get(e.getKey())[0];
    }
    return new long[] {moves, adding, bytes};
  }
}
