package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ReflectionUtils;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bad value stops the NameNode's policy at creation with one line naming the key. */
class PlacementConfigurationTest {
  @TempDir
  Path dir;

  @Test
  void aTopologyTableWithMixedDepthsStopsTheNameNodeNamingTheHost() throws Exception {
    Path table = dir.resolve("topology.table");
    Files.writeString(table, "# host rack\n10.0.0.1 /dc1/r1\n10.0.0.2 /dc1/r2\n10.0.0.7 /r3\n");
    Configuration conf = new Configuration(false);
    conf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    conf.set("net.topology.table.file.name", table.toString());
    InvalidConfigException e = assertThrows(InvalidConfigException.class,
        () -> ReflectionUtils.newInstance(HierarchicalPlacementPolicy.class, conf));
    assertEquals("net.topology.table.file.name = '" + table + "' is not valid: expected a table mapping every host"
        + " at the same depth, but host 10.0.0.7 maps to /r3 (1 level) but 10.0.0.1 maps to /dc1/r1 (2 levels):"
        + " every DataNode must be mapped at depth 2", e.getMessage());

    Files.writeString(table, "10.0.0.1 /dc1/r1\n10.0.0.2 /dc2/r2\n");
    ReflectionUtils.newInstance(HierarchicalPlacementPolicy.class, conf);
    // A host commented out, as TableMapping reads it: not a host at all.
    Files.writeString(table, "10.0.0.1 /dc1/r1\n#10.0.0.7 /r3\n  # 10.0.0.8 /r4\n10.0.0.2 /dc2/r2\n");
    ReflectionUtils.newInstance(HierarchicalPlacementPolicy.class, conf);
  }

  @Test
  void badRefreshIntervalIsRejectedNamingTheKey() {
    Configuration conf = new Configuration(false);
    conf.set("bulwark.placement.rack-fill.refresh-interval", "often");
    for (Class<? extends OneReplicaPerRackPlacementPolicy> type
        : java.util.List.of(OneReplicaPerRackPlacementPolicy.class, HierarchicalPlacementPolicy.class)) {
      RuntimeException e = assertThrows(RuntimeException.class, () -> ReflectionUtils.newInstance(type, conf));
      Throwable cause = e instanceof InvalidConfigException ? e : e.getCause();
      assertEquals("bulwark.placement.rack-fill.refresh-interval = 'often' is not valid: expected a duration of at"
          + " least 0ms, such as 500ms, 2s or 1m", cause.getMessage());
    }
  }
}
