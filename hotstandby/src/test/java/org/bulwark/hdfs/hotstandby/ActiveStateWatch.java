package org.bulwark.hdfs.hotstandby;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;

/**
 * Asks every NameNode of a nameservice for its HA state every 10 ms, counting the samples that would mean a failover
 * away from the NameNode that should stay active: another one answering active, or that one answering standby. A
 * NameNode that does not answer (null) counts in neither.
 */
final class ActiveStateWatch implements AutoCloseable {
  final AtomicLong samples = new AtomicLong();
  final AtomicLong otherActive = new AtomicLong();
  final AtomicLong notActive = new AtomicLong();
  private final Thread thread;
  private volatile boolean running = true;

  ActiveStateWatch(IntFunction<HAServiceState> state, int nameNodes, int active) {
    thread = new Thread(() -> {
      while (running) {
        samples.incrementAndGet();
        for (int i = 0; i < nameNodes; i++) {
          HAServiceState s = state.apply(i);
          if (i != active && s == HAServiceState.ACTIVE) {
            otherActive.incrementAndGet();
          } else if (i == active && s == HAServiceState.STANDBY) {
            notActive.incrementAndGet();
          }
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "active-state-watch");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(5000);
  }
}
