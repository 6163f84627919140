package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The host-local relay hands a JVM without a ZooKeeper session the record that JVMs with one saw, but only a
 * record relayed since its wait began, active, wanted and written by this user: a file left from an earlier
 * failover must not send a client to a NameNode that has been standby since.
 */
class HostRecordRelayTest {
  /** One wait of a single slice, as a failover whose first slice finds the record does. */
  private static ActiveRecord await(HostRecordRelay relay, long since, Predicate<ActiveRecord> wanted, long millis)
      throws InterruptedException {
    try (HostRecordRelay.Wait wait = relay.startWait(since, wanted)) {
      return wait.await(millis);
    }
  }

  private static ActiveRecord record(String nn, ActiveRecord.State state) {
    return new ActiveRecord("ns1", nn, nn + ".example.com:8020", 4, 1, state, 0);
  }

  @ParameterizedTest(name = "watched: {0}")
  @ValueSource(booleans = {true, false})
  void aRecordRelayedDuringTheWaitIsTaken(boolean watched, @TempDir Path dir) throws Exception {
    HostRecordRelay writer = new HostRecordRelay(dir.resolve("record"));
    HostRecordRelay reader = new HostRecordRelay(dir.resolve("record"), watched);
    long since = System.currentTimeMillis();
    CompletableFuture<ActiveRecord> waited = CompletableFuture.supplyAsync(() -> {
      try {
        return await(reader, since, r -> r.nameNodeId().equals("nn2"), 30_000);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(100);
    writer.publish(record("nn1", ActiveRecord.State.ACTIVE)); // not wanted: the waiter's NameNode failed
    Thread.sleep(100);
    writer.publish(record("nn2", ActiveRecord.State.ACTIVE));
    assertEquals("nn2", waited.get(30, TimeUnit.SECONDS).nameNodeId());
  }

  @Test
  void aRecordRelayedBeforeTheWaitBeganIsNotTaken(@TempDir Path dir) throws Exception {
    HostRecordRelay relay = new HostRecordRelay(dir.resolve("record"));
    relay.publish(record("nn2", ActiveRecord.State.ACTIVE));
    long since = System.currentTimeMillis() + 1;
    assertNull(await(relay, since, r -> true, 100), "left from an earlier failover");
    assertNotNull(await(relay, since - 60_000, r -> true, 100), "the same record, relayed since the wait began");
  }

  @ParameterizedTest(name = "watched: {0}")
  @ValueSource(booleans = {true, false})
  void onlyActiveRecordsAreTaken(boolean watched, @TempDir Path dir) throws Exception {
    HostRecordRelay relay = new HostRecordRelay(dir.resolve("record"), watched);
    long since = System.currentTimeMillis();
    relay.publish(record("nn2", ActiveRecord.State.EXITED));
    assertNull(await(relay, since, r -> true, 50));
    relay.publish(record("nn2", ActiveRecord.State.ACTIVE));
    assertEquals(ActiveRecord.State.ACTIVE, await(relay, since, r -> true, 50).state());
  }

  @Test
  void noFileOrAnUnreadableOneIsNoRecord(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("record");
    HostRecordRelay relay = new HostRecordRelay(file);
    assertNull(await(relay, 0, r -> true, 30), "no file");
    Files.write(file, "relayedAt=12\nnamenode=nn2\n".getBytes(StandardCharsets.UTF_8));
    assertNull(await(relay, 0, r -> true, 30), "half a record");
    Files.write(file, "garbage".getBytes(StandardCharsets.UTF_8));
    assertNull(await(relay, 0, r -> true, 30), "not a record");
  }

  @Test
  void anotherUsersFileIsIgnored(@TempDir Path dir) throws Exception {
    Object ownUid = Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
    assumeTrue(Integer.valueOf(0).equals(ownUid), "only root can give a file to another user");
    Path file = dir.resolve("record");
    HostRecordRelay relay = new HostRecordRelay(file);
    relay.publish(record("nn2", ActiveRecord.State.ACTIVE));
    Files.setAttribute(file, "unix:uid", 65534);
    assertNull(await(relay, 0, r -> true, 30));
  }

  @Test
  void aFailedWriteLeavesTheRelayAsItWas(@TempDir Path dir) throws Exception {
    HostRecordRelay relay = new HostRecordRelay(dir.resolve("missing-directory").resolve("record"));
    relay.publish(record("nn2", ActiveRecord.State.ACTIVE)); // logged, not thrown
    assertNull(await(relay, 0, r -> true, 30));
  }

  @Test
  void noRelayOnlyWaits() throws Exception {
    HostRecordRelay none = HostRecordRelay.none();
    none.publish(record("nn2", ActiveRecord.State.ACTIVE));
    long start = System.nanoTime();
    assertNull(await(none, 0, r -> true, 100));
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(100), "waited the whole timeout");
  }
}
