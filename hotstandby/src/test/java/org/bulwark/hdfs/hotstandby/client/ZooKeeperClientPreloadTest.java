package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.List;

import org.bulwark.hdfs.hotstandby.warmup.ClassPreloader;
import org.junit.jupiter.api.Test;

/** The preload list matches the ZooKeeper client on the class path and leaves out the classes that log. */
class ZooKeeperClientPreloadTest {
  @Test
  void everyListedClassIsOnTheClassPathAndNoneLogsTheEnvironment() throws Exception {
    List<String> names;
    try (InputStream in = ZooKeeperClientPreload.class.getResourceAsStream("zookeeper-client-classes.txt")) {
      assertNotNull(in, "the list ships in the jar");
      names = ClassPreloader.readNames(in);
    }
    assertTrue(names.size() > 40, "the client's classes: " + names.size());
    assertTrue(names.contains("org.apache.zookeeper.ClientCnxn"), "the connection's classes are listed");
    assertFalse(names.contains("org.apache.zookeeper.ZooKeeper"), "ZooKeeper's initialiser logs the environment");
    assertFalse(names.contains("org.apache.zookeeper.Environment"));
    ClassPreloader.Result r = ClassPreloader.load(names, getClass().getClassLoader(), n -> false);
    assertEquals(0, r.missing(), "every listed class is on the class path: " + r);
  }
}
