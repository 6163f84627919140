package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * One client process of the clients-at-scale test and benchmark: a task JVM on a worker host, reading
 * through its nameservice's failover proxy provider in a loop until a stop file appears. It prints
 * {@code ready} after its first answer and, at the end, one {@code result} line: calls served, the longest
 * time between two answers (its outage), and when it was last served; before it, when the system property
 * {@value #STALL_SAMPLER} is true, {@code stall-stack} lines: what its calling thread ran while a call took over
 * 100 ms ({@link StallSampler}).
 *
 * <p>Arguments: the client site file, the stop file.
 */
public final class ClientJvm {
  private static final long PAUSE_MILLIS = 20;
  static final String STALL_SAMPLER = "bulwark.test.stall-sampler";

  private ClientJvm() {
  }

  public static void main(String[] args) throws Exception {
    HdfsConfiguration conf = new HdfsConfiguration();
    conf.addResource(new Path(new File(args[0]).toURI()));
    File stop = new File(args[1]);
    long calls = 0;
    long failures = 0;
    long lastServed = 0;
    long longestGap = 0;
    long sinceLast;
    StallSampler stalls = new StallSampler(Thread.currentThread(), Boolean.getBoolean(STALL_SAMPLER));
    try (FileSystem fs = FileSystem.newInstance(URI.create("hdfs://" + ProcessHaCluster.NS), conf)) {
      while (!stop.exists()) {
        try {
          stalls.callStarted();
          fs.getFileStatus(new Path("/"));
          long now = System.nanoTime();
          if (lastServed != 0) {
            longestGap = Math.max(longestGap, now - lastServed);
          } else {
            System.out.println("ready");
          }
          lastServed = now;
          calls++;
        } catch (IOException e) {
          failures++;
          System.out.println("failed: " + e);
        } finally {
          stalls.callEnded();
        }
        Thread.sleep(PAUSE_MILLIS);
      }
      // Taken before the client closes: closing a JVM's ZooKeeper session waits for ZooKeeper's answer.
      sinceLast = lastServed == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastServed);
    }
    stalls.report(12).forEach(System.out::println);
    System.out.println("result calls=" + calls + " failures=" + failures + " longestGapMs="
        + TimeUnit.NANOSECONDS.toMillis(longestGap) + " lastServedMsAgo=" + sinceLast);
    System.exit(0);
  }
}
