package org.bulwark.hdfs.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NameNode;

/**
 * Samples the HA state of every NameNode of one nameservice every millisecond or so (in process, or over
 * RPC for NameNodes in processes of their own), and counts the samples in which two or more were active
 * at once. A NameNode the test is killing is
 * marked down first ({@link #markDown}): from that instant it is a dead process that serves nobody,
 * although its in-memory state still reads active while it shuts down.
 */
public final class SplitBrainChecker implements AutoCloseable {
  private final IntPredicate isActive;
  private final long periodMillis;
  private final int[] nameNodeIndexes;
  private final Set<Integer> down = ConcurrentHashMap.newKeySet();
  private final AtomicLong samples = new AtomicLong();
  private final AtomicLong observations = new AtomicLong();
  private final List<String> firstObservations = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  private SplitBrainChecker(IntPredicate isActive, long periodMillis, int[] nameNodeIndexes) {
    this.isActive = isActive;
    this.periodMillis = periodMillis;
    this.nameNodeIndexes = nameNodeIndexes.clone();
    this.thread = new Thread(this::loop, "split-brain-checker");
    this.thread.setDaemon(true);
  }

  /** Starts sampling the NameNodes at MiniDFSCluster indexes {@code nameNodeIndexes} (one nameservice). */
  public static SplitBrainChecker start(MiniDFSCluster cluster, int... nameNodeIndexes) {
    return start(i -> {
      NameNode nn = cluster.getNameNode(i);
      return nn != null && nn.isActiveState();
    }, 1, nameNodeIndexes);
  }

  /**
   * Starts sampling NameNodes {@code nameNodeIndexes} through {@code isActive} (index to whether that
   * NameNode says it is active; false when it does not answer), pausing {@code periodMillis} between
   * samples: over RPC, sampling every millisecond would load the NameNodes being measured.
   */
  public static SplitBrainChecker start(IntPredicate isActive, long periodMillis, int... nameNodeIndexes) {
    SplitBrainChecker c = new SplitBrainChecker(isActive, periodMillis, nameNodeIndexes);
    c.thread.start();
    return c;
  }

  /** Call before stopping NameNode {@code index}: from now on it counts as dead. */
  public void markDown(int index) {
    down.add(index);
  }

  /** Call once NameNode {@code index} has been restarted. */
  public void markUp(int index) {
    down.remove(index);
  }

  private void loop() {
    while (running) {
      List<Integer> active = new ArrayList<>();
      for (int i : nameNodeIndexes) {
        if (down.contains(i)) {
          continue;
        }
        try {
          if (isActive.test(i) && !down.contains(i)) {
            active.add(i);
          }
        } catch (RuntimeException e) {
          // A NameNode being replaced: not serving.
        }
      }
      samples.incrementAndGet();
      if (active.size() > 1) {
        observations.incrementAndGet();
        synchronized (firstObservations) {
          if (firstObservations.size() < 5) {
            firstObservations.add(System.currentTimeMillis() + ": NameNodes " + active + " active together");
          }
        }
      }
      try {
        Thread.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  public long samples() {
    return samples.get();
  }

  /** Samples with two or more active NameNodes. */
  public long observations() {
    return observations.get();
  }

  /** Throws AssertionError describing the first observations if any sample saw two actives. */
  public void assertNoSplitBrain() {
    if (observations.get() > 0) {
      synchronized (firstObservations) {
        throw new AssertionError(observations.get() + " of " + samples.get() + " samples saw two active NameNodes: "
            + firstObservations);
      }
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
