package org.bulwark.hdfs.it.failure;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.bulwark.hdfs.hotstandby.HotStandbyController;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.StoppedDataNodes;

/**
 * The faults of issue 7's list, each injected into a running {@link AllPluginsCluster} by one method
 * that returns how to undo it. The failure suite calls them one by one; the endurance benchmark draws
 * them at random.
 */
final class Faults {
  private static final Duration WAIT = Duration.ofMinutes(2);

  private final AllPluginsCluster c;
  private final Balancing balancing;
  private final Random random;
  private final File dir;

  Faults(AllPluginsCluster c, Random random) {
    this.c = c;
    this.balancing = new Balancing(c);
    this.random = random;
    this.dir = c.dir;
  }

  /** DataNodes killed or stopped; healed by starting them again. */
  record StoppedNodes(String name, AllPluginsCluster c, StoppedDataNodes stopped) implements Fault {
    @Override
    public void heal() throws Exception {
      c.cluster.restart(stopped);
    }

    @Override
    public void healIfStillBroken() throws Exception {
      c.cluster.restart(new StoppedDataNodes(stopped.nodes().stream()
          .filter(s -> c.cluster.running(s.handle()) == null).toList()));
    }
  }

  /** One DataNode process killed (kill -9: its connections reset at once). */
  StoppedNodes dataNodeKilled() {
    DataNodeHandle victim = randomDataNode();
    return new StoppedNodes("DataNode " + victim + " killed", c, c.cluster.kill(List.of(victim)));
  }

  /** Every DataNode of a random rack killed at once, as a rack losing power with its hosts. */
  StoppedNodes rackStopped() {
    String rack = c.cluster.topology().racks().get(random.nextInt(c.cluster.topology().racks().size())).path();
    return new StoppedNodes("rack " + rack + " stopped", c, c.cluster.kill(c.cluster.dataNodesInRack(rack)));
  }

  /** Every DataNode of a random datacenter killed at once. */
  StoppedNodes datacenterStopped() {
    List<String> dcs = c.cluster.topology().datacenters();
    String dc = dcs.get(random.nextInt(dcs.size()));
    return new StoppedNodes("datacenter " + dc + " stopped", c, c.cluster.kill(c.cluster.dataNodesInDatacenter(dc)));
  }

  /**
   * The active NameNode of nameservice {@code ns} killed; healed by starting it again (it comes back
   * standby) and asking the DataNodes for block reports.
   */
  Fault activeNameNodeKilled(int ns) throws TimeoutException, InterruptedException {
    int killed = c.killActiveNameNode(ns);
    return new Fault() {
      @Override
      public String name() {
        return "active NameNode ns" + (ns + 1) + ".nn" + (killed + 1) + " killed";
      }

      @Override
      public void heal() throws Exception {
        c.restartNameNode(ns, killed);
        c.triggerBlockReports();
      }

      @Override
      public void healIfStillBroken() throws Exception {
        if (!c.isNameNodeUp(ns, killed)) {
          heal();
        }
      }
    };
  }

  /** ZooKeeper stopped and started again at once; nothing to heal, the controllers reconnect. */
  Fault zooKeeperRestarted() throws Exception {
    c.cluster.zooKeeper().restart();
    return simple("ZooKeeper restarted");
  }

  /**
   * The ZooKeeper session of the leading controller of {@code ns} expired, as ZooKeeper expires a session
   * whose client it has not heard from: on the server first (its lock goes at once), the client learning
   * of it afterwards. Healed once a NameNode is active again.
   */
  Fault leaderSessionExpired(int ns) throws Exception {
    int active = c.ha.awaitActive(ns, -1);
    HotStandbyController leader = c.ha.controller(ns, active);
    expireOnServer(leader.zooKeeperClient().getZookeeperClient().getZooKeeper());
    return new Fault() {
      @Override
      public String name() {
        return "session of the ns" + (ns + 1) + " leader (nn" + (active + 1) + ") expired";
      }

      @Override
      public void heal() throws Exception {
        c.ha.awaitActive(ns, -1);
        c.triggerBlockReports();
      }
    };
  }

  /** What a balancer run killed with kill -9 was rerun into. */
  static final class BalancerKilled implements Fault {
    private final Balancing balancing;
    private final boolean wasMoving;
    Balancing.Run rerun;

    BalancerKilled(Balancing balancing, boolean wasMoving) {
      this.balancing = balancing;
      this.wasMoving = wasMoving;
    }

    @Override
    public String name() {
      return "balancer killed with kill -9 mid-iteration";
    }

    /** Whether the balancer was still running (moving replicas) when it was killed. */
    boolean wasMoving() {
      return wasMoving;
    }

    @Override
    public void heal() throws Exception {
      balancing.recoverLocks();
      rerun = balancing.rerun();
    }

    @Override
    public void healIfStillBroken() throws Exception {
      balancing.recoverLocks();
    }
  }

  /** A skewed write, then {@code hdfs balancer -policy availability} in its own JVM killed with kill -9 after its first move. */
  BalancerKilled balancerKilled() throws Exception {
    balancing.slowDown();
    balancing.skewedWrite(randomDataNode(), 24);
    Process p = balancing.fork(dir);
    try {
      balancing.awaitFirstMove(p::isAlive);
      return new BalancerKilled(balancing, p.isAlive());
    } finally {
      p.destroyForcibly();
      p.waitFor();
    }
  }

  /** What a balancer run that lost its active NameNode ended with. */
  static final class NameNodeKilledUnderBalancer implements Fault {
    private final Fault killed;
    private final Thread balancer;
    private final AtomicReference<Balancing.Run> run;
    Balancing.Run during;

    NameNodeKilledUnderBalancer(Fault killed, Thread balancer, AtomicReference<Balancing.Run> run) {
      this.killed = killed;
      this.balancer = balancer;
      this.run = run;
    }

    @Override
    public String name() {
      return killed.name() + " while the balancer runs";
    }

    @Override
    public void heal() throws Exception {
      balancer.join(WAIT.toMillis());
      if (balancer.isAlive()) {
        throw new AssertionError("the balancer did not finish within " + WAIT + " of a failover");
      }
      during = run.get();
      killed.heal();
    }

    @Override
    public void healIfStillBroken() throws Exception {
      balancer.join(WAIT.toMillis());
      killed.healIfStillBroken();
    }

    /** Whether the interrupted run ended as the stock balancer's would: done, no block to move, or an I/O error. */
    boolean endedCleanly() {
      return during != null && (during.exit() == ExitStatus.SUCCESS.getExitCode()
          || during.exit() == ExitStatus.NO_MOVE_BLOCK.getExitCode()
          || during.exit() == ExitStatus.NO_MOVE_PROGRESS.getExitCode()
          || during.exit() == ExitStatus.IO_EXCEPTION.getExitCode());
    }
  }

  /** A skewed write, the balancer started in this JVM, and the active NameNode of {@code ns} killed after its first move. */
  NameNodeKilledUnderBalancer activeNameNodeKilledUnderBalancer(int ns) throws Exception {
    balancing.slowDown();
    balancing.skewedWrite(randomDataNode(), 24);
    AtomicReference<Balancing.Run> run = new AtomicReference<>();
    Thread balancer = new Thread(() -> {
      try {
        run.set(balancing.run());
      } catch (Exception e) {
        run.set(new Balancing.Run(-100, MixedWorkload.oneLine(e)));
      }
    }, "balancer");
    balancer.start();
    balancing.awaitFirstMove(balancer::isAlive);
    return new NameNodeKilledUnderBalancer(activeNameNodeKilled(ns), balancer, run);
  }

  /**
   * {@code hdfs blockmonitor} killed with kill -9 in the middle of a poll: restarted slowed down so that
   * a poll lasts seconds, killed while one is under way, healed by starting it again at full speed.
   */
  Fault monitorKilledMidPoll() throws Exception {
    c.monitor.kill();
    c.monitor.restart(4);
    // restart returns after the first poll; the monitor says when the next (lasting seconds) is under way.
    Await.until("the monitor is inside a poll", WAIT, c.monitor::pollInProgress);
    c.monitor.kill();
    return new Fault() {
      @Override
      public String name() {
        return "block monitor killed with kill -9 mid-poll";
      }

      @Override
      public void heal() throws Exception {
        c.monitor.restart(1000);
      }

      @Override
      public void healIfStillBroken() throws Exception {
        if (!c.monitor.isRunning()) {
          heal();
        }
      }
    };
  }

  /**
   * Ends a client's session on the server: a second connection with the same session id and password,
   * closed (ZooKeeper's own way for tests). Curator's {@code KillSession} instead tells the client first,
   * which leaves the session's ephemeral znodes on the server for up to a session timeout.
   */
  private void expireOnServer(ZooKeeper client) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper twin = new ZooKeeper(c.cluster.zooKeeperConnectString(), 2000, e -> {
      if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    }, client.getSessionId(), client.getSessionPasswd());
    try {
      if (!connected.await(30, TimeUnit.SECONDS)) {
        throw new IOException("could not attach to the controller's ZooKeeper session");
      }
    } finally {
      twin.close();
    }
  }

  private DataNodeHandle randomDataNode() {
    List<DataNodeHandle> running = new ArrayList<>();
    for (DataNodeHandle h : c.cluster.dataNodes()) {
      if (c.cluster.running(h) != null) {
        running.add(h);
      }
    }
    return running.get(random.nextInt(running.size()));
  }

  private static Fault simple(String name) {
    return new Fault() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void heal() {
        // nothing to undo
      }
    };
  }
}
