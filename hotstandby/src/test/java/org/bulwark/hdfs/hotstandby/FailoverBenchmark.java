package org.bulwark.hdfs.hotstandby;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.ZKFailoverController;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.bulwark.hdfs.hotstandby.controller.ControllerState;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BenchReport;
import org.bulwark.hdfs.testkit.SplitBrainChecker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code mvn -B -Pbench -Dbench=failover verify}: the active NameNode of one HA pair is killed again
 * and again, under Hadoop's stock ZKFC with {@code ConfiguredFailoverProxyProvider} and under
 * {@link HotStandbyController} with {@link ZooKeeperFailoverProxyProvider}, on the same embedded
 * cluster, in alternating rounds, both with health checks every 200 ms and 2 s ZooKeeper sessions.
 * Per failover: active killed to the other active ({@code failover_ms}), the {@code transitionToActive}
 * call alone ({@code switch_ms}), and the longest gap between two successful {@code getFileInfo} calls of
 * a client looping on it ({@code client_outage_ms}); a split-brain checker samples both NameNodes
 * every millisecond throughout.
 */
@Tag("bench-all")
@Tag("bench-failover")
class FailoverBenchmark {
  private static final int ROUNDS = 4;
  private static final int PER_ROUND = Integer.getInteger("bench.failover.perRound", 6);
  private static final Duration WAIT = Duration.ofSeconds(60);

  /** One contender: how its controllers start and stop, and which provider its client uses. */
  private interface Variant extends AutoCloseable {
    String name();

    void start() throws Exception;

    boolean ready(int nn);

    /** The transitionToActive of the last failover, in ms, as the controller timed it. */
    double lastSwitchMillis(int nn) throws Exception;

    String provider();

    @Override
    void close() throws Exception;
  }

  /** The stock ZKFC; its transitionToActive is timed from its own two log lines around the call. */
  private static final class Stock implements Variant {
    private final HotStandbyCluster ha;
    private final StockZkfc[] zkfcs = new StockZkfc[2];
    private final ConcurrentLinkedQueue<long[]> switches = new ConcurrentLinkedQueue<>();
    private final AppenderSkeleton timer = new AppenderSkeleton() {
      private long started;

      @Override
      protected void append(LoggingEvent e) {
        String m = String.valueOf(e.getMessage());
        if (m.startsWith("Trying to make ")) {
          started = System.nanoTime();
        } else if (m.startsWith("Successfully transitioned ") && m.endsWith("to active state")) {
          switches.add(new long[] {started, System.nanoTime()});
        }
      }

      @Override
      public void close() {
      }

      @Override
      public boolean requiresLayout() {
        return false;
      }
    };

    Stock(HotStandbyCluster ha) {
      this.ha = ha;
    }

    @Override
    public String name() {
      return "stock";
    }

    @Override
    public void start() throws Exception {
      Logger log = Logger.getLogger(ZKFailoverController.class);
      log.setLevel(Level.INFO);
      log.addAppender(timer);
      StockZkfc.formatZooKeeper(stockConf(0));
      for (int i = 0; i < 2; i++) {
        zkfcs[i] = StockZkfc.start(stockConf(i));
      }
    }

    private Configuration stockConf(int nn) {
      Configuration conf = ha.controllerConf(nn);
      conf.setInt("ha.health-monitor.check-interval.ms", 200);
      conf.setInt("ha.zookeeper.session-timeout.ms", 2000);
      return conf;
    }

    @Override
    public boolean ready(int nn) {
      return zkfcs[nn].state() == HAServiceState.STANDBY || zkfcs[nn].state() == HAServiceState.ACTIVE;
    }

    @Override
    public double lastSwitchMillis(int nn) throws Exception {
      Await.until("the stock ZKFC logged its transition", WAIT, () -> !switches.isEmpty());
      long[] last = null;
      for (long[] s; (s = switches.poll()) != null; ) {
        last = s;
      }
      return (last[1] - last[0]) / 1e6;
    }

    @Override
    public String provider() {
      return ConfiguredFailoverProxyProvider.class.getName();
    }

    @Override
    public void close() throws Exception {
      for (StockZkfc z : zkfcs) {
        if (z != null) {
          z.close();
        }
      }
      Logger.getLogger(ZKFailoverController.class).removeAppender(timer);
    }
  }

  /** Ours. */
  private static final class Ours implements Variant {
    private final HotStandbyCluster ha;

    Ours(HotStandbyCluster ha) {
      this.ha = ha;
    }

    @Override
    public String name() {
      return "bulwark";
    }

    @Override
    public void start() throws Exception {
      ha.startControllers();
    }

    @Override
    public boolean ready(int nn) {
      ControllerState s = ha.controller(nn).state();
      return s == ControllerState.STANDBY || s == ControllerState.ACTIVE;
    }

    @Override
    public double lastSwitchMillis(int nn) {
      return ha.controller(nn).metrics().lastTransitionMillis();
    }

    @Override
    public String provider() {
      return ZooKeeperFailoverProxyProvider.class.getName();
    }

    @Override
    public void close() {
      for (int i = 0; i < 2; i++) {
        ha.stopController(i);
      }
    }
  }

  /** Calls getFileInfo in a loop and keeps the time of every success. */
  private static final class LoopingClient implements AutoCloseable {
    private final FileSystem fs;
    private final List<Long> successes = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;
    private volatile boolean running = true;

    LoopingClient(Configuration conf) throws IOException {
      this.fs = FileSystem.newInstance(URI.create("hdfs://ns1"), conf);
      this.thread = new Thread(() -> {
        while (running) {
          try {
            fs.getFileStatus(new Path("/"));
            successes.add(System.nanoTime());
          } catch (IOException e) {
            // The retry policy gave up: the outage goes on.
          }
        }
      }, "looping-client");
      thread.start();
    }

    long lastSuccess() {
      synchronized (successes) {
        return successes.isEmpty() ? Long.MIN_VALUE : successes.get(successes.size() - 1);
      }
    }

    /** Longest gap between consecutive successes, among those gaps that end after {@code from}. */
    double longestGapMillisAfter(long from) {
      long longest = 0;
      synchronized (successes) {
        for (int i = 1; i < successes.size(); i++) {
          if (successes.get(i) > from) {
            longest = Math.max(longest, successes.get(i) - successes.get(i - 1));
          }
        }
        successes.clear();
      }
      return longest / 1e6;
    }

    @Override
    public void close() throws Exception {
      running = false;
      thread.join(30_000);
      fs.close();
    }
  }

  @Test
  void failover() throws Exception {
    List<double[]> stock = new ArrayList<>();
    List<double[]> ours = new ArrayList<>();
    long[] splitBrain = new long[2];
    try (HotStandbyCluster ha = HotStandbyCluster.start(2)) {
      ha.splitBrain.close();
      for (int round = 0; round < ROUNDS; round++) {
        splitBrain[0] += measure(ha, new Stock(ha), stock);
        splitBrain[1] += measure(ha, new Ours(ha), ours);
      }
    }
    BenchReport report = BenchReport.start("failover", stock.size());
    ArrayNode variants = report.root().putArray("variants");
    summarise(variants.addObject(), "stock", stock, splitBrain[0]);
    summarise(variants.addObject(), "bulwark", ours, splitBrain[1]);
    report.root().put("health_check_interval_ms", 200);
    report.root().put("zookeeper_session_timeout_ms", 2000);
    System.out.println("wrote " + report.write());
    System.out.println(report.root().toPrettyString());
  }

  /** One round of one variant: both NameNodes standby, controllers started, PER_ROUND kills. */
  private static long measure(HotStandbyCluster ha, Variant v, List<double[]> out) throws Exception {
    for (int i = 0; i < 2; i++) {
      ha.cluster.mini().transitionToStandby(i);
    }
    try (SplitBrainChecker checker = SplitBrainChecker.start(ha.cluster.mini(), 0, 1); Variant variant = v) {
      variant.start();
      Configuration clientConf = ha.cluster.conf();
      clientConf.set("dfs.client.failover.proxy.provider.ns1", variant.provider());
      for (int k = 0; k < PER_ROUND; k++) {
        Await.until(variant.name() + " made a NameNode active", WAIT, () -> ha.activeNameNode() >= 0);
        Await.until(variant.name() + " controllers ready", WAIT, () -> variant.ready(0) && variant.ready(1));
        int active = ha.activeNameNode();
        int other = 1 - active;
        try (LoopingClient client = new LoopingClient(clientConf)) {
          Await.until("the client is being served", WAIT, () -> client.lastSuccess() != Long.MIN_VALUE);
          long killed = System.nanoTime();
          checker.markDown(active);
          ha.cluster.mini().shutdownNameNode(active);
          long activeAgain = awaitActive(ha, other);
          Await.until("the client is served again", WAIT, () -> client.lastSuccess() > activeAgain);
          double failoverMs = (activeAgain - killed) / 1e6;
          double outageMs = client.longestGapMillisAfter(killed);
          double switchMs = variant.lastSwitchMillis(other);
          out.add(new double[] {failoverMs, switchMs, outageMs});
          System.out.printf(Locale.ROOT, "%-8s failover %7.1f ms  switch %6.1f ms  client outage %7.1f ms%n",
              variant.name(), failoverMs, switchMs, outageMs);
        }
        ha.cluster.mini().restartNameNode(active, true);
        checker.markUp(active);
      }
      return checker.observations();
    }
  }

  /** Polls every millisecond until NameNode {@code nn} is active; returns when (nanoTime). */
  private static long awaitActive(HotStandbyCluster ha, int nn) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (ha.cluster.mini().getNameNode(nn).isActiveState()) {
        return System.nanoTime();
      }
      TimeUnit.MICROSECONDS.sleep(500);
    }
    throw new AssertionError("NameNode " + nn + " did not become active within " + WAIT);
  }

  private static void summarise(ObjectNode v, String name, List<double[]> samples, long splitBrain) {
    v.put("name", name);
    String[] fields = {"failover_ms", "switch_ms", "client_outage_ms"};
    for (int f = 0; f < fields.length; f++) {
      List<Double> values = new ArrayList<>();
      for (double[] s : samples) {
        values.add(s[f]);
      }
      Collections.sort(values);
      v.put(fields[f] + "_p50", round(percentile(values, 50)));
      v.put(fields[f] + "_p95", round(percentile(values, 95)));
      v.put(fields[f] + "_max", round(values.get(values.size() - 1)));
    }
    v.put("split_brain_observations", splitBrain);
    v.put("runs", samples.size());
  }

  /** Nearest-rank percentile of sorted values. */
  private static double percentile(List<Double> sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
