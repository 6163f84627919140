package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients of a {@link BulwarkMiniCluster}, one per nameservice and host they run on, open until the
 * cluster closes. Exists so that a test's many writes from one host share one client, and so that
 * closing the cluster also closes clients the kit did not open itself (see {@link #close()}).
 */
final class ClientCache {
  private static final Logger LOG = LoggerFactory.getLogger(ClientCache.class);

  private final Configuration conf;
  private final NameNodes nameNodes;
  /** Guarded by itself, not by the cluster: clients must not wait while DataNodes stop or start. */
  private final Map<String, DistributedFileSystem> fileSystems = new HashMap<>();

  ClientCache(Configuration conf, NameNodes nameNodes) {
    this.conf = conf;
    this.nameNodes = nameNodes;
  }

  /**
   * A client of nameservice {@code ns} whose connections leave from {@code host}'s address, or from
   * 127.0.0.1 (where no DataNode is) when {@code host} is null.
   */
  DistributedFileSystem client(int ns, DataNodeHandle host) throws IOException {
    String key = ns + "@" + (host == null ? "off-cluster" : host.ipAddress());
    synchronized (fileSystems) {
      DistributedFileSystem fs = fileSystems.get(key);
      if (fs == null) {
        Configuration clientConf = new Configuration(conf);
        LoopbackSocketFactory.configure(clientConf, host == null ? "127.0.0.1" : host.ipAddress());
        fs = (DistributedFileSystem) FileSystem.newInstance(nameNodes.uri(ns), clientConf);
        fileSystems.put(key, fs);
      }
      return fs;
    }
  }

  /**
   * Closes the kit's clients, then the JVM-wide cached {@code FileSystem} of each nameservice URI. Tools
   * run in-process (the stock balancer's {@code NameNodeConnector} takes {@code FileSystem.get} and never
   * closes it) leave one behind; the next cluster in this JVM reuses the logical name {@code hdfs://ns1},
   * and the cache would hand it a client still dialling this cluster's NameNodes, retrying refused
   * connections for minutes.
   */
  void close() {
    synchronized (fileSystems) {
      for (DistributedFileSystem fs : fileSystems.values()) {
        IOUtils.closeStream(fs);
      }
      fileSystems.clear();
    }
    for (int ns = 0; ns < nameNodes.nameservices().size(); ns++) {
      try {
        FileSystem.get(nameNodes.uri(ns), conf).close();
      } catch (IOException | RuntimeException e) {
        // The URI itself may be what failed: a non-HA NameNode stopped by the test has none.
        LOG.warn("could not close the cached client of nameservice {}", nameNodes.nameservices().get(ns), e);
      }
    }
  }
}
