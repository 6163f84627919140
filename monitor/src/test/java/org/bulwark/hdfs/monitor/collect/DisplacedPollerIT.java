package org.bulwark.hdfs.monitor.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URI;
import java.util.List;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.monitor.store.LeaseLostException;
import org.bulwark.hdfs.monitor.store.SharedStore;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A monitor whose store another monitor took over: its poll fails at once, before any NameNode is asked (the one
 * configured here does not exist), and the status the UI and the health check show says why.
 */
class DisplacedPollerIT {
  @TempDir
  File dir;

  static Stream<String> engines() {
    return Stream.of("embedded", "postgresql");
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aDisplacedMonitorsPollFailsSayingTheStoreWasTakenOver(String engine) throws Exception {
    SharedStore place = new SharedStore(engine, dir, "displaced");
    try (HistoryStore first = place.open()) {
      HistoryPoller poller = new HistoryPoller(new Configuration(false), List.of(URI.create("hdfs://127.0.0.1:1")), first,
          1000, 3_600_000, 86_400_000, null);
      place.expireLease();
      try (HistoryStore second = place.open()) {
        LeaseLostException e = assertThrows(LeaseLostException.class, poller::pollOnce);
        MonitorStatus status = poller.status();
        assertEquals(e.getMessage(), status.lastError());
        assertTrue(status.lastError().contains(") was taken over by another block monitor (now held by host "), status.lastError());
        assertEquals(1, status.failedPolls());
        assertTrue(!status.pollInProgress());
        assertEquals(0, status.lastScans().size(), "no namespace was scanned");
        assertTrue(second.namespaceId("hdfs://127.0.0.1:1") > 0, "the monitor that took the store over writes it");
      } finally {
        poller.close();
      }
    }
  }
}
