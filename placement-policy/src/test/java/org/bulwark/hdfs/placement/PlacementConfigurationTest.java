package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ReflectionUtils;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.junit.jupiter.api.Test;

/** A bad value stops the NameNode's policy at creation with one line naming the key. */
class PlacementConfigurationTest {
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
