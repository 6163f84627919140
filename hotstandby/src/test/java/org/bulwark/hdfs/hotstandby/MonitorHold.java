package org.bulwark.hdfs.hotstandby;

import java.util.concurrent.CountDownLatch;

/** Test helper: a thread that holds an object's monitor until released, as a hung caller would. */
final class MonitorHold {
  private MonitorHold() {
  }

  /** A thread holding {@code monitor} until {@code release}; returns once it holds it. */
  static Thread hold(Object monitor, CountDownLatch release) {
    CountDownLatch holding = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      synchronized (monitor) {
        holding.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, "hold-" + monitor.getClass().getSimpleName());
    t.start();
    try {
      holding.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return t;
  }
}
