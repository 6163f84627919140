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
