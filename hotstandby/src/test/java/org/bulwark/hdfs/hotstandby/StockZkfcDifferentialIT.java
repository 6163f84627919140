package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Our controller against Hadoop's ZKFC on seeded generated fault sequences, each run under both on an embedded
 * cluster of two NameNodes with the same settings (200 ms health checks, 1 s health timeout, 2 s sessions,
 * {@code shell(true)} fencing): the active NameNode killed, the NameNodes restarted, the active's or the standby's
 * controller stopped, the controllers started again, ZooKeeper restarted or away for longer than a session, an
 * operator's {@code hdfs haadmin -failover}. Steps name roles (the active NameNode, the standby's controller), not
 * indexes, so that both runs of a sequence mean the same thing although the two elections may pick different
 * NameNodes.
 *
 * <p>After each step the test waits, the same way for both, for a NameNode to be active (up to 20 s when one
 * could be: a NameNode up with its controller running, or one active already; else 3 s). Wherever the stock ZKFC
 * had an active NameNode after a step, ours must have one too; wherever {@code haadmin -failover} succeeded under
 * the stock ZKFC, it must under ours. After the last step every NameNode and controller is started again and
 * both must have an active NameNode. Neither may ever have two active NameNodes (the split-brain checker samples
 * them every millisecond throughout). Cases: {@code -Dhotstandby.zkfc-differential.cases=N} (2 by default, a
 * minute each), seeds from {@code hotstandby.zkfc-differential.seed} (1).
 */
class StockZkfcDifferentialIT {
  private static final int CASES = Integer.getInteger("hotstandby.zkfc-differential.cases", 2);
  private static final long SEED = Long.getLong("hotstandby.zkfc-differential.seed", 1L);
  private static final int STEPS = 5;
  private static final Duration SETTLE = Duration.ofSeconds(20);
  private static final Duration NONE_EXPECTED = Duration.ofSeconds(3);
  private static final long ZOOKEEPER_OUTAGE_MILLIS = 3000;

  static {
    // Both controllers' account of each step, for a failing case's story (the test output goes to a file).
    org.apache.log4j.Logger.getLogger("org.apache.hadoop.ha").setLevel(org.apache.log4j.Level.INFO);
    org.apache.log4j.Logger.getLogger("org.bulwark.hdfs.hotstandby").setLevel(org.apache.log4j.Level.INFO);
  }

  /** One fault or operator action, by role. */
  enum Step {
    KILL_ACTIVE_NAMENODE, RESTART_NAMENODES, STOP_ACTIVE_CONTROLLER, STOP_STANDBY_CONTROLLER, START_CONTROLLERS,
    RESTART_ZOOKEEPER, ZOOKEEPER_OUTAGE, HAADMIN_FAILOVER
  }

  static List<Step> generate(long seed) {
    Random r = new Random(seed * 0x9E3779B97F4A7C15L);
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < STEPS; i++) {
      steps.add(Step.values()[r.nextInt(Step.values().length)]);
    }
    return steps;
  }

  /** The controllers of the two NameNodes, stock or ours, started and stopped one by one. */
  private interface Controllers extends AutoCloseable {
    String name();

    void start(int nn) throws Exception;

    void stop(int nn) throws Exception;

    @Override
    void close() throws Exception;
  }

  private static final class Ours implements Controllers {
    private final HotStandbyCluster ha;

    Ours(HotStandbyCluster ha) {
      this.ha = ha;
    }

    @Override
    public String name() {
      return "ours";
    }

    @Override
    public void start(int nn) throws Exception {
      ha.startController(nn);
    }

    @Override
    public void stop(int nn) {
      ha.stopController(nn);
    }

    @Override
    public void close() {
      for (int i = 0; i < ha.nameNodes(); i++) {
        ha.stopController(i);
      }
    }
  }

  private static final class Stock implements Controllers {
    private final HotStandbyCluster ha;
    private final StockZkfc[] zkfcs;

    Stock(HotStandbyCluster ha) throws Exception {
      this.ha = ha;
      this.zkfcs = new StockZkfc[ha.nameNodes()];
      StockZkfc.formatZooKeeper(conf(0));
    }

    private Configuration conf(int nn) {
      return StockZkfc.sameSettingsAsOurs(ha.controllerConf(nn));
    }

    @Override
    public String name() {
      return "stock";
    }

    @Override
    public void start(int nn) {
      zkfcs[nn] = StockZkfc.start(conf(nn));
    }

    @Override
    public void stop(int nn) throws InterruptedException {
      zkfcs[nn].close();
      zkfcs[nn] = null;
    }

    @Override
    public void close() throws InterruptedException {
      for (int i = 0; i < zkfcs.length; i++) {
        if (zkfcs[i] != null) {
          stop(i);
        }
      }
    }
  }

  /**
   * Runs the steps of {@code seed} under one kind of controller on a cluster of its own, every NameNode and controller
   * running first; returns each step's outcome, then the outcome of starting everything again. Null when that kind
   * had no active NameNode to begin with (the case then compares nothing).
   */
  private static List<String> run(long seed, boolean stock) throws Exception {
    List<String> outcome = new ArrayList<>();
    try (HotStandbyCluster ha = HotStandbyCluster.start(2);
        Controllers controllers = stock ? new Stock(ha) : new Ours(ha)) {
      boolean[] controllerUp = new boolean[2];
      boolean[] nameNodeUp = {true, true};
      restore(ha, controllers, controllerUp, nameNodeUp);
      if (settle(ha, controllerUp, nameNodeUp) < 0) {
        System.out.printf(Locale.ROOT, "%s seed %d: no NameNode active with everything running%n", controllers.name(), seed);
        return null;
      }
      for (Step step : generate(seed)) {
        long start = System.nanoTime();
        String did = perform(step, ha, controllers, controllerUp, nameNodeUp);
        int active = settle(ha, controllerUp, nameNodeUp);
        outcome.add(did + (active >= 0 ? "active" : "none"));
        System.out.printf(Locale.ROOT, "%s seed %d %s: %s%s (%d ms)%n", controllers.name(), seed, step, did,
            active >= 0 ? "nn" + (active + 1) + " active" : "no NameNode active",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      }
      restore(ha, controllers, controllerUp, nameNodeUp);
      int active = settle(ha, controllerUp, nameNodeUp);
      outcome.add(active >= 0 ? "active" : "none");
      System.out.printf(Locale.ROOT, "%s seed %d restored: %s%n", controllers.name(), seed,
          active >= 0 ? "nn" + (active + 1) + " active" : "no NameNode active");
    }
    return outcome;
  }

  /** Carries out {@code step}; returns what it did beyond the step's name ("" or "haadmin exit N, "). */
  private static String perform(Step step, HotStandbyCluster ha, Controllers controllers, boolean[] controllerUp,
      boolean[] nameNodeUp) throws Exception {
    int active = ha.activeNameNode();
    int standby = active >= 0 ? 1 - active : 1;
    switch (step) {
      case KILL_ACTIVE_NAMENODE:
        if (active >= 0) {
          ha.killNameNode(active);
          nameNodeUp[active] = false;
        }
        return "";
      case RESTART_NAMENODES:
        restartNameNodes(ha, nameNodeUp);
        return "";
      case STOP_ACTIVE_CONTROLLER:
      case STOP_STANDBY_CONTROLLER:
        int nn = step == Step.STOP_ACTIVE_CONTROLLER ? (active >= 0 ? active : 0) : standby;
        if (controllerUp[nn]) {
          controllers.stop(nn);
          controllerUp[nn] = false;
        }
        return "";
      case START_CONTROLLERS:
        startControllers(controllers, controllerUp);
        return "";
      case RESTART_ZOOKEEPER:
        ha.cluster.zooKeeper().restart();
        return "";
      case ZOOKEEPER_OUTAGE:
        ha.cluster.zooKeeper().stop();
        Thread.sleep(ZOOKEEPER_OUTAGE_MILLIS);
        ha.cluster.zooKeeper().restart();
        return "";
      case HAADMIN_FAILOVER:
        if (active < 0) {
          return "haadmin not run (none active), ";
        }
        OutputStream unread = OutputStream.nullOutputStream();
        HaAdmin admin = new HaAdmin(ha.cluster.conf(), unread, unread);
        int rc = admin.run(new String[] {"-failover", "nn" + (active + 1), "nn" + (standby + 1)});
        return "haadmin exit " + rc + ", ";
      default:
        throw new IllegalArgumentException(step.name());
    }
  }

  /** Every NameNode up, every controller running (ZooKeeper is up after every step): a case's start and end. */
  private static void restore(HotStandbyCluster ha, Controllers controllers, boolean[] controllerUp,
      boolean[] nameNodeUp) throws Exception {
    restartNameNodes(ha, nameNodeUp);
    startControllers(controllers, controllerUp);
  }

  private static void restartNameNodes(HotStandbyCluster ha, boolean[] nameNodeUp) throws Exception {
    for (int i = 0; i < nameNodeUp.length; i++) {
      if (!nameNodeUp[i]) {
        ha.restartNameNode(i);
        nameNodeUp[i] = true;
      }
    }
  }

  private static void startControllers(Controllers controllers, boolean[] controllerUp) throws Exception {
    for (int i = 0; i < controllerUp.length; i++) {
      if (!controllerUp[i]) {
        controllers.start(i);
        controllerUp[i] = true;
      }
    }
  }

  /**
   * Waits, the same way under either kind, for a NameNode to be active: up to {@link #SETTLE} when one could be
   * (one is already, or a NameNode is up with its controller running), else {@link #NONE_EXPECTED}. Returns it, or
   * -1. An active NameNode must stay so for half a second (a controller stepping down right after is no answer).
   */
  private static int settle(HotStandbyCluster ha, boolean[] controllerUp, boolean[] nameNodeUp)
      throws InterruptedException {
    boolean couldBe = ha.activeNameNode() >= 0 || (nameNodeUp[0] && controllerUp[0]) || (nameNodeUp[1] && controllerUp[1]);
    long deadline = System.nanoTime() + (couldBe ? SETTLE : NONE_EXPECTED).toNanos();
    int held = -1;
    long heldSince = 0;
    while (System.nanoTime() - deadline < 0) {
      int active = ha.activeNameNode();
      if (active != held) {
        held = active;
        heldSince = System.nanoTime();
      } else if (active >= 0 && System.nanoTime() - heldSince >= TimeUnit.MILLISECONDS.toNanos(500)) {
        return active;
      }
      Thread.sleep(20);
    }
    return ha.activeNameNode();
  }

  @Test
  void oursHasAnActiveNameNodeWhereverTheStockZkfcDoes() throws Exception {
    int compared = 0;
    int stockWithout = 0;
    for (long seed = SEED; seed < SEED + CASES; seed++) {
      List<Step> steps = generate(seed);
      List<String> stock = run(seed, true);
      List<String> ours = run(seed, false);
      assertTrue(ours != null, "seed " + seed + ": ours made no NameNode active with everything running");
      if (stock == null) {
        continue;
      }
      for (int s = 0; s <= STEPS; s++) {
        String where = "seed " + seed + ", " + steps + ", after " + (s < STEPS ? "step " + (s + 1) : "starting everything again")
            + ": stock " + stock + ", ours " + ours;
        if (stock.get(s).endsWith("active")) {
          assertTrue(ours.get(s).endsWith("active"), where);
        } else if (ours.get(s).endsWith("active")) {
          stockWithout++;
        }
        if (stock.get(s).startsWith("haadmin exit 0")) {
          assertTrue(ours.get(s).startsWith("haadmin exit 0"), where);
        }
        compared++;
      }
      assertEquals("active", ours.get(STEPS), "seed " + seed + ": with everything running again, an active NameNode");
    }
    System.out.printf(Locale.ROOT, "%d cases, %d outcomes compared, %d where only ours had an active NameNode%n", CASES,
        compared, stockWithout);
  }
}
