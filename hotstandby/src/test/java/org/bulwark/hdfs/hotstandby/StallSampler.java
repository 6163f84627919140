package org.bulwark.hdfs.hotstandby;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples what a client thread runs while one of its calls is stalled (taking longer than
 * {@link #STALL_NANOS}), from inside its JVM: {@code jstack} takes seconds to attach on a host that 100
 * client JVMs keep busy, which is when the samples matter. Counts each distinct top of the stack; a
 * daemon thread, one sample every {@link #PERIOD_MILLIS}. Made without sampling, it only takes the calls'
 * start and end and reports nothing.
 */
final class StallSampler {
  private static final long STALL_NANOS = 100_000_000L;
  private static final long PERIOD_MILLIS = 50;
  private static final int FRAMES = 28;

  private final Thread target;
  private final Map<String, Integer> counts = new HashMap<>();
  private volatile long callStart;
  private int samples;

  StallSampler(Thread target, boolean sampling) {
    this.target = target;
    if (sampling) {
      Thread sampler = new Thread(this::run, "stall-sampler");
      sampler.setDaemon(true);
      sampler.start();
    }
  }

  void callStarted() {
    callStart = System.nanoTime();
  }

  void callEnded() {
    callStart = 0;
  }

  private void run() {
    while (true) {
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      long start = callStart;
      if (start == 0 || System.nanoTime() - start < STALL_NANOS) {
        continue;
      }
      StackTraceElement[] stack = target.getStackTrace();
      StringBuilder top = new StringBuilder(target.getState().toString());
      for (int i = 0; i < Math.min(FRAMES, stack.length); i++) {
        String cls = stack[i].getClassName();
        top.append(" < ").append(cls, cls.lastIndexOf('.') + 1, cls.length()).append('.')
            .append(stack[i].getMethodName()).append(':').append(stack[i].getLineNumber());
      }
      synchronized (counts) {
        counts.merge(top.toString(), 1, Integer::sum);
        samples++;
      }
    }
  }

  /** The most frequent stack tops, one line each: {@code stall-stack <count>/<samples> <state> < frames}. */
  List<String> report(int most) {
    List<String> lines = new ArrayList<>();
    synchronized (counts) {
      counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(most)
          .forEach(e -> lines.add("stall-stack " + e.getValue() + "/" + samples + " " + e.getKey()));
    }
    return lines;
  }
}
