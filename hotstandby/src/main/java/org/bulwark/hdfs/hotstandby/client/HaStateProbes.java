package org.bulwark.hdfs.hotstandby.client;

import java.io.Closeable;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One proxy provider's questions to its NameNodes ("what is your HA state?") while it fails over: asked in
 * parallel, each waited on no longer than the caller says. Why: a NameNode whose host accepts and never answers
 * (hung, or a host gone whose connects time out) would otherwise hold the failing-over thread for the RPC
 * timeout ({@code ipc.client.rpc-timeout.ms}, 2 minutes by default), and with it every thread of its
 * {@code DFSClient}, whose retry handler holds a lock through {@code performFailover}. A question still
 * unanswered is not asked again; its answer, when it comes, serves the next round.
 */
public final class HaStateProbes implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HaStateProbes.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  /** Daemon threads, made as questions need them and ended after a minute idle: a JVM exits with questions out. */
  private static final ExecutorService ASKING = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
      new SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, "bulwark-ha-state-probe-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
      });

  private final IntFunction<ClientProtocol> nameNodes;
  private final IntFunction<String> names;
  /** The question out to each NameNode, or null; guarded by this. */
  private final Future<?>[] asked;
  /** Each NameNode's last answer, null for none or a failure; guarded by this. */
  private final HAServiceState[] answers;

  /**
   * @param count how many NameNodes
   * @param nameNodes NameNode {@code i}'s proxy (its RPCs are not retried: a dead NameNode costs little)
   * @param names NameNode {@code i} as logs name it
   */
  public HaStateProbes(int count, IntFunction<ClientProtocol> nameNodes, IntFunction<String> names) {
    this.nameNodes = nameNodes;
    this.names = names;
    this.asked = new Future<?>[count];
    this.answers = new HAServiceState[count];
  }

  /** Begins a failover's wait: answers from an earlier one no longer count (questions still out do). */
  public synchronized void newWait() {
    Arrays.fill(answers, null);
  }

  /**
   * Asks the NameNodes {@code include} accepts (those with a question out are not asked again) and returns the
   * first that answers active, or -1 once each has answered otherwise or {@code waitMillis} has passed. An
   * answer that came since the last round of this wait counts.
   */
  public synchronized int findActive(IntPredicate include, long waitMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    for (int i = 0; i < asked.length; i++) {
      // An active answer already in is taken below, unasked.
      if (include.test(i) && asked[i] == null && answers[i] != HAServiceState.ACTIVE) {
        ask(i);
      }
    }
    while (true) {
      boolean waiting = false;
      for (int i = 0; i < asked.length; i++) {
        if (!include.test(i)) {
          continue;
        }
        if (asked[i] != null) {
          waiting = true;
        } else if (answers[i] == HAServiceState.ACTIVE) {
          answers[i] = null;
          return i;
        }
      }
      long left = deadline - System.nanoTime();
      if (!waiting || left <= 0) {
        return -1;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  private void ask(int i) {
    answers[i] = null;
    ClientProtocol nameNode = nameNodes.apply(i);
    asked[i] = ASKING.submit(() -> {
      HAServiceState state = null;
      try {
        state = nameNode.getHAServiceState();
      } catch (Exception e) {
        LOG.debug("cannot ask {} for its HA state: {}", names.apply(i), e.toString());
      } finally {
        answered(i, state);
      }
    });
  }

  private synchronized void answered(int i, HAServiceState state) {
    asked[i] = null;
    answers[i] = state;
    notifyAll();
  }

  /** Stops waiting for the questions still out (their threads are interrupted). */
  @Override
  public synchronized void close() {
    for (Future<?> f : asked) {
      if (f != null) {
        f.cancel(true);
      }
    }
  }
}
