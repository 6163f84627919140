package org.bulwark.hdfs.testkit;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix;

/**
 * A cluster's racks written compactly, as {@code /dc1/r1:3,/dc1/r2:3@512m,/dc2/r3:2}: each entry is a
 * rack path, its number of DataNodes and optionally their capacity (Hadoop's binary suffixes k, m, g, t).
 * A rack path's first component is its datacenter when racks are two or more levels deep.
 *
 * <p>Hadoop requires every leaf of the topology to be at the same depth, so every rack here must be
 * too; the spec is rejected up front, with a message naming the offending entry, rather than failing
 * deep inside the NameNode.
 *
 * @param racks the racks in the order given; DataNodes are numbered through them in that order
 */
public record TopologySpec(List<Rack> racks) {
  private static final Pattern ENTRY = Pattern.compile("(/[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*):(\\d+)(?:@([0-9]+[kmgtpeKMGTPE]?))?");

  /** One rack: its path, its number of DataNodes, and their capacity in bytes (0: the disk's). */
  public record Rack(String path, int dataNodes, long capacityBytes) {
    /** The rack's datacenter: its first path component when it has two or more, otherwise "/". */
    public String datacenter() {
      int second = path.indexOf('/', 1);
      return second < 0 ? "/" : path.substring(0, second);
    }

    int depth() {
      return (int) path.chars().filter(c -> c == '/').count();
    }
  }

  public TopologySpec {
    racks = List.copyOf(racks);
  }

  /** Parses a spec; throws IllegalArgumentException naming the bad entry and the expected form. */
  public static TopologySpec parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("topology spec is empty: expected /rack:count[@capacity],..., e.g. /dc1/r1:3,/dc2/r2:2@1g");
    }
    List<Rack> racks = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String raw : spec.split(",")) {
      String entry = raw.trim();
      Matcher m = ENTRY.matcher(entry);
      if (!m.matches()) {
        throw new IllegalArgumentException("topology spec entry '" + entry
            + "' is not /rack:count[@capacity] (e.g. /dc1/r1:3 or /r2:2@512m)");
      }
      int count = Integer.parseInt(m.group(2));
      if (count < 1) {
        throw new IllegalArgumentException("topology spec entry '" + entry + "': a rack needs at least one DataNode");
      }
      long capacity = m.group(3) == null ? 0 : TraditionalBinaryPrefix.string2long(m.group(3));
      Rack rack = new Rack(m.group(1), count, capacity);
      if (!seen.add(rack.path())) {
        throw new IllegalArgumentException("topology spec names rack " + rack.path() + " twice");
      }
      if (!racks.isEmpty() && racks.get(0).depth() != rack.depth()) {
        throw new IllegalArgumentException("topology spec: racks must all be at the same depth, as Hadoop requires: "
            + racks.get(0).path() + " has " + racks.get(0).depth() + " levels, " + rack.path() + " has " + rack.depth());
      }
      racks.add(rack);
    }
    return new TopologySpec(racks);
  }

  public int dataNodeCount() {
    return racks.stream().mapToInt(Rack::dataNodes).sum();
  }

  /** The rack of each DataNode, in DataNode order. */
  public List<Rack> rackOfEachDataNode() {
    List<Rack> out = new ArrayList<>();
    for (Rack r : racks) {
      for (int i = 0; i < r.dataNodes(); i++) {
        out.add(r);
      }
    }
    return out;
  }

  /** The distinct datacenters, in the order they first appear. */
  public List<String> datacenters() {
    return racks.stream().map(Rack::datacenter).distinct().toList();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Rack r : racks) {
      sb.append(sb.length() == 0 ? "" : ",").append(r.path()).append(':').append(r.dataNodes());
      if (r.capacityBytes() > 0) {
        sb.append('@').append(r.capacityBytes());
      }
    }
    return sb.toString();
  }
}
