package org.bulwark.hdfs.placement.rules;

import java.util.Map;

/**
 * Hadoop's network topology requires every DataNode at the same depth ({@code /rack} everywhere, or
 * {@code /datacenter/rack} everywhere). This finds a host that breaks the rule in a host-to-rack map,
 * so the mistake is named before the NameNode meets it one DataNode at a time.
 */
public final class TopologyDepthRules {
  private TopologyDepthRules() {
  }

  /** Number of components of a rack path: {@code /r1} is 1, {@code /dc1/r1} is 2. */
  public static int depth(String rack) {
    int depth = 0;
    for (String part : rack.split("/")) {
      if (!part.isEmpty()) {
        depth++;
      }
    }
    return depth;
  }

  /**
   * Null when every host of {@code rackByHost} (in iteration order) maps to the depth of the first;
   * otherwise one line naming the first host that does not, its rack and the depth expected.
   */
  public static String firstMismatch(Map<String, String> rackByHost) {
    String firstHost = null;
    int expected = -1;
    for (Map.Entry<String, String> e : rackByHost.entrySet()) {
      int d = depth(e.getValue());
      if (firstHost == null) {
        firstHost = e.getKey();
        expected = d;
      } else if (d != expected) {
        return "host " + e.getKey() + " maps to " + e.getValue() + " (" + d + (d == 1 ? " level" : " levels")
            + ") but " + firstHost + " maps to " + rackByHost.get(firstHost) + " (" + expected
            + (expected == 1 ? " level" : " levels") + "): every DataNode must be mapped at depth " + expected;
      }
    }
    return null;
  }
}
