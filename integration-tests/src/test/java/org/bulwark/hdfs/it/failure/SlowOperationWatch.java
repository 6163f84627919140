package org.bulwark.hdfs.it.failure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Says where a client operation that takes longer than a second is waiting: every 250 ms it looks at
 * the workload's threads, and for an operation past the limit keeps the stack of its thread and of the
 * HDFS client threads working for it (the DataStreamer of an output stream). Slow operations are what
 * the outage figure measures; their stacks say whether HDFS or the test is to blame.
 */
final class SlowOperationWatch implements AutoCloseable {
  private static final long LIMIT_NANOS = 1_000_000_000L;
  private static final int KEEP = 10;

  private final Map<Thread, Long> started = new ConcurrentHashMap<>();
  private final Map<Thread, Boolean> sampled = new ConcurrentHashMap<>();
  private final List<String> samples = Collections.synchronizedList(new ArrayList<>());
  private final Thread thread = new Thread(this::loop, "slow-operation-watch");
  private volatile boolean running = true;

  SlowOperationWatch() {
    thread.setDaemon(true);
    thread.start();
  }

  void operationStarted(Thread worker) {
    started.put(worker, System.nanoTime());
    sampled.remove(worker);
  }

  void operationEnded(Thread worker) {
    started.remove(worker);
  }

  /** The stacks kept so far (at most ten operations). */
  List<String> samples() {
    synchronized (samples) {
      return new ArrayList<>(samples);
    }
  }

  private void loop() {
    while (running) {
      long now = System.nanoTime();
      started.forEach((worker, since) -> {
        if (now - since > LIMIT_NANOS && sampled.putIfAbsent(worker, true) == null && samples.size() < KEEP) {
          samples.add(describe(worker, (now - since) / 1_000_000));
        }
      });
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static String describe(Thread worker, long millis) {
    StringBuilder b = new StringBuilder(worker.getName()).append(" busy for ").append(millis).append(" ms:\n");
    append(b, worker.getStackTrace());
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      StackTraceElement[] stack = e.getValue();
      boolean streamer = false;
      for (StackTraceElement f : stack) {
        streamer |= f.getClassName().equals("org.apache.hadoop.hdfs.DataStreamer") && f.getMethodName().equals("run");
      }
      if (streamer && !idle(stack)) {
        b.append("  ").append(e.getKey().getName()).append(":\n");
        append(b, stack);
      }
    }
    return b.toString();
  }

  /** A DataStreamer waiting for data to send, with no error to handle: nothing to see. */
  private static boolean idle(StackTraceElement[] stack) {
    return stack.length > 1 && stack[0].getMethodName().equals("wait") && stack[1].getMethodName().equals("run");
  }

  private static void append(StringBuilder b, StackTraceElement[] stack) {
    for (int i = 0; i < Math.min(14, stack.length); i++) {
      b.append("    at ").append(stack[i]).append('\n');
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
