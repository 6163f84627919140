package org.bulwark.hdfs.hotstandby.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.CloseableUtils;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.bulwark.hdfs.hotstandby.election.LeaderElection;
import org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The activation protocol against a real ZooKeeper (Curator's {@link TestingServer}) with NameNodes that
 * are plain state: a controller dies after each step in turn (its session closed at once, as a
 * kill -9's expires later), the next leader activates its own NameNode, and at the end exactly one
 * NameNode is active: whatever the dead controller may have left active was fenced first.
 */
class ActivationIT {
  private TestingServer server;
  private final List<CuratorFramework> clients = new ArrayList<>();
  private final List<LeaderElection> elections = new ArrayList<>();
  /** Which NameNodes are active, as the NameNodes themselves would say. */
  private final Map<String, Boolean> active = new java.util.concurrent.ConcurrentSkipListMap<>();
  private final List<String> fenced = java.util.Collections.synchronizedList(new ArrayList<>());
  private final Set<String> unfenceable = new TreeSet<>();
  private ZNodes paths;

  /** A NameNode that is state alone; optionally its transition "times out" after taking effect. */
  private final class StateNameNode implements Activation.Target {
    final String id;
    boolean timesOutAfterTransition;

    StateNameNode(String id) {
      this.id = id;
      active.put(id, false);
    }

    @Override
    public String nameNodeId() {
      return id;
    }

    @Override
    public void transitionToActive() throws IOException {
      active.put(id, true);
      if (timesOutAfterTransition) {
        throw new IOException("Call to " + id + " timed out");
      }
    }

    @Override
    public ActiveRecord activeRecord(long epoch, long sinceMillis) {
      return new ActiveRecord("ns1", id, id + ":8020", epoch, sinceMillis, ActiveRecord.State.ACTIVE, 0);
    }
  }

  /** Fencing as the graceful path does it: the NameNode goes to standby. */
  private PreviousActiveFencer.Outcome fence(String id) {
    if (unfenceable.contains(id)) {
      return PreviousActiveFencer.Outcome.FAILED;
    }
    fenced.add(id);
    active.put(id, false);
    return PreviousActiveFencer.Outcome.GRACEFUL;
  }

  private final class Controller {
    final StateNameNode nameNode;
    final CuratorFramework client;
    final LeaderElection election;

    Controller(String id) throws Exception {
      nameNode = new StateNameNode(id);
      client = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).sessionTimeoutMs(4000)
          .connectionTimeoutMs(4000).retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
      clients.add(client);
      client.start();
      assertTrue(client.blockUntilConnected(10, TimeUnit.SECONDS));
      election = new LeaderElection(client, paths, id, () -> { });
      elections.add(election);
      election.start();
    }

    Activation activation(Activation.StepListener steps) {
      return new Activation(election, nameNode, ActivationIT.this::fence, OtherNameNodes.NONE, System::currentTimeMillis, steps);
    }

    Activation.Result activate() throws Exception {
      return activation(step -> { }).run();
    }

    /** The controller process dies: its session ends, its NameNode keeps whatever state it had. */
    void die() {
      election.close();
      client.close();
    }
  }

  /** What a test throws from a step listener: the controller dies there. */
  private static final class Died extends RuntimeException {
    Died(Activation.Step step) {
      super("controller died after " + step);
    }
  }

  @BeforeEach
  void start() throws Exception {
    server = new TestingServer(true);
    paths = new ZNodes("/bulwark-ha", "ns1");
  }

  @AfterEach
  void stop() {
    elections.forEach(CloseableUtils::closeQuietly);
    clients.forEach(CloseableUtils::closeQuietly);
    CloseableUtils.closeQuietly(server);
  }

  private Set<String> activeNameNodes() {
    Set<String> out = new TreeSet<>();
    active.forEach((id, isActive) -> {
      if (isActive) {
        out.add(id);
      }
    });
    return out;
  }

  /** nn3 made active by a clean activation; then its controller alone dies (the NameNode serves on). */
  private void nn3ActiveAndItsControllerDead() throws Exception {
    Controller first = new Controller("nn3");
    assertEquals(Activation.Outcome.ACTIVE, first.activate().outcome);
    first.die();
  }

  @ParameterizedTest
  @EnumSource(Activation.Step.class)
  void aControllerDyingAfterAnyStepLeavesNoSecondActiveNameNode(Activation.Step dieAfter) throws Exception {
    nn3ActiveAndItsControllerDead();
    Controller a = new Controller("nn1");
    Activation dying = a.activation(step -> {
      if (step == dieAfter) {
        throw new Died(step);
      }
    });
    assertThrows(Died.class, dying::run);
    a.die();

    Controller b = new Controller("nn2");
    Activation.Result r = b.activate();
    assertEquals(Activation.Outcome.ACTIVE, r.outcome, r.detail);
    assertEquals(Set.of("nn2"), activeNameNodes(), "after nn1's controller died after " + dieAfter + ", fenced " + fenced);
    assertTrue(r.leadership.toFence().contains("nn1"), "the breadcrumb named nn1 from the lock on: " + r.leadership.toFence());
    assertEquals("nn2", b.election.readActiveRecord().nameNodeId());
    assertEquals(Set.of("nn2"), b.election.readBreadcrumb().mayBeActive());
  }

  @Test
  void aTransitionThatTimedOutButHappenedIsFencedByTheNextLeader() throws Exception {
    Controller a = new Controller("nn1");
    a.nameNode.timesOutAfterTransition = true;
    assertEquals(Activation.Outcome.TRANSITION_FAILED, a.activate().outcome);
    a.die(); // before it could step its NameNode down
    assertEquals(Set.of("nn1"), activeNameNodes());

    Controller b = new Controller("nn2");
    Activation.Result r = b.activate();
    assertEquals(Activation.Outcome.ACTIVE, r.outcome);
    assertEquals(Set.of("nn2"), activeNameNodes());
    assertEquals(List.of("nn1"), fenced);
    assertEquals(1, r.fenced.graceful, "counted as a graceful fencing");
    assertEquals(0, r.fenced.byMethod);
  }

  @Test
  void aCleanHandOverLeavesNothingToFence() throws Exception {
    Controller a = new Controller("nn1");
    Activation.Result first = a.activate();
    assertEquals(Activation.Outcome.ACTIVE, first.outcome);
    // nn1 steps down by itself, and its controller says so in the release.
    active.put("nn1", false);
    a.election.release(first.leadership, first.published.relinquished());

    Controller b = new Controller("nn2");
    Activation.Result second = b.activate();
    assertEquals(Activation.Outcome.ACTIVE, second.outcome);
    assertTrue(second.leadership.toFence().isEmpty(), second.leadership.toFence().toString());
    assertTrue(fenced.isEmpty(), "nothing fenced: " + fenced);
    assertEquals(0, second.fenced.graceful + second.fenced.byMethod);
    assertEquals(0, second.fenced.millis, "no fencing takes no time, however the clock ticked");
  }

  @Test
  void eachZooKeeperStepIsTimedOnItsOwn() throws Exception {
    Controller a = new Controller("nn1");
    AtomicLong ticks = new AtomicLong();
    // Every read of this clock is 7 ms after the one before: a step timed by two reads of its own took 7.
    Activation activation = new Activation(a.election, a.nameNode, this::fence, OtherNameNodes.NONE, () -> ticks.addAndGet(7), s -> { });
    assertEquals(Activation.Outcome.ACTIVE, activation.run().outcome);
    assertEquals(7, activation.lockMillis());
    assertEquals(7, activation.confirmMillis());
    assertEquals(7, activation.publishMillis());
  }

  @Test
  void aNameNodeThatCannotBeFencedIsNeverJoinedByASecondActive() throws Exception {
    nn3ActiveAndItsControllerDead();
    unfenceable.add("nn3");
    Controller b = new Controller("nn2");
    Activation.Result r = b.activate();
    assertEquals(Activation.Outcome.FENCING_FAILED, r.outcome);
    assertEquals("nn3", r.fenced.unfenced);
    assertEquals(Set.of("nn3"), activeNameNodes());
    b.election.release(r.leadership, null);
    assertEquals(Set.of("nn2", "nn3"), b.election.readBreadcrumb().mayBeActive(),
        "still to fence, for whoever leads next");
  }

  @Test
  void controllersWithoutABreadcrumbFenceWhatTheActiveRecordNames() throws Exception {
    // As left by controllers of an earlier release: an active record, no breadcrumb.
    Controller old = new Controller("nn3");
    old.client.create().creatingParentsIfNeeded().forPath(paths.active(),
        old.nameNode.activeRecord(1, 1).encode());
    active.put("nn3", true);
    old.die();
    Controller b = new Controller("nn2");
    assertEquals(Activation.Outcome.ACTIVE, b.activate().outcome);
    assertEquals(Set.of("nn2"), activeNameNodes());
    assertEquals(List.of("nn3"), fenced);
  }

  @Test
  void racingControllersActivateOneNameNode() throws Exception {
    nn3ActiveAndItsControllerDead();
    Controller a = new Controller("nn1");
    Controller b = new Controller("nn2");
    AtomicInteger activated = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (Controller c : List.of(a, b)) {
      Thread t = new Thread(() -> {
        try {
          if (c.activate().outcome == Activation.Outcome.ACTIVE) {
            activated.incrementAndGet();
          }
        } catch (Exception e) {
          synchronized (errors) {
            errors.add(e);
          }
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join(30_000);
    }
    assertTrue(errors.isEmpty(), errors.toString());
    assertEquals(1, activated.get());
    assertEquals(1, activeNameNodes().size(), activeNameNodes().toString());
  }
}
