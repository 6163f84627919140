package org.bulwark.hdfs.hotstandby;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.tools.DFSZKFailoverController;

/** Hadoop's own ZKFC for one NameNode, in process on its own thread: the peer our controller is measured against. */
final class StockZkfc implements AutoCloseable {
  private final DFSZKFailoverController zkfc;
  private final Thread thread;

  private StockZkfc(Configuration conf) {
    this.zkfc = DFSZKFailoverController.create(conf);
    this.thread = new Thread(() -> {
      try {
        zkfc.run(new String[0]);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        if (!(e.getCause() instanceof InterruptedException)) {
          throw new IllegalStateException(e);
        }
      }
    }, "stock-zkfc");
    thread.setDaemon(true);
  }

  /**
   * Gives the stock ZKFC the settings our test controllers run with ({@link HotStandbyCluster#fastFailover}): 200 ms
   * health checks, a 1 s health-check timeout and 2 s ZooKeeper sessions. Also no thread dump fetched over HTTP
   * before it quits the election: a NameNode being shut down can accept that request and never answer it (seen:
   * failovers that waited the default 20 s read timeout), and 0 is the stock ZKFC's strongest setting.
   */
  static Configuration sameSettingsAsOurs(Configuration conf) {
    conf.setInt("ha.health-monitor.check-interval.ms", 200);
    conf.setInt("ha.health-monitor.rpc-timeout.ms", 1000);
    conf.setInt("ha.zookeeper.session-timeout.ms", 2000);
    conf.setInt("dfs.ha.zkfc.nn.http.timeout.ms", 0);
    return conf;
  }

  /** {@code hdfs zkfc -formatZK -force -nonInteractive}. */
  static void formatZooKeeper(Configuration conf) throws Exception {
    int rc = DFSZKFailoverController.create(conf).run(new String[] {"-formatZK", "-force", "-nonInteractive"});
    if (rc != 0) {
      throw new IllegalStateException("zkfc -formatZK exited " + rc);
    }
  }

  /** Starts a stock ZKFC for the NameNode named by {@code conf}'s {@code dfs.ha.namenode.id}. */
  static StockZkfc start(Configuration conf) {
    StockZkfc z = new StockZkfc(conf);
    z.thread.start();
    return z;
  }

  /** The HA state the stock ZKFC last put its NameNode in (its own view). */
  org.apache.hadoop.ha.HAServiceProtocol.HAServiceState state() {
    return zkfc.getServiceState();
  }

  @Override
  public void close() throws InterruptedException {
    thread.interrupt();
    thread.join(10_000);
  }
}
