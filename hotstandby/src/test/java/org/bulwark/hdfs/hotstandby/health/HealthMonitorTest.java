package org.bulwark.hdfs.hotstandby.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;

import org.apache.hadoop.ha.HealthCheckFailedException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.net.ConnectTimeoutException;
import org.junit.jupiter.api.Test;

/** How failed health checks are read: the difference between "gone" and "maybe hung" decides fencing. */
class HealthMonitorTest {
  @Test
  void refusedConnectionMeansGone() {
    assertEquals(NameNodeHealth.GONE, HealthMonitor.classify(new ConnectException("Connection refused")).health());
    assertEquals(NameNodeHealth.GONE,
        HealthMonitor.classify(new IOException("wrapped", new ConnectException("Connection refused"))).health());
  }

  @Test
  void timeoutsMeanUnresponsive() {
    assertEquals(NameNodeHealth.UNRESPONSIVE, HealthMonitor.classify(new SocketTimeoutException("read")).health());
    assertEquals(NameNodeHealth.UNRESPONSIVE, HealthMonitor.classify(new ConnectTimeoutException("connect")).health());
    assertEquals(NameNodeHealth.UNRESPONSIVE, HealthMonitor.classify(new IOException("reset")).health());
  }

  @Test
  void nameNodeSayingItIsUnhealthyIsUnhealthy() {
    RemoteException remote = new RemoteException(HealthCheckFailedException.class.getName(), "resources low");
    HealthReport r = HealthMonitor.classify(remote);
    assertEquals(NameNodeHealth.UNHEALTHY, r.health());
    assertEquals("resources low", r.detail());
    assertEquals(NameNodeHealth.UNRESPONSIVE,
        HealthMonitor.classify(new RemoteException("java.lang.IllegalStateException", "boom")).health());
  }
}
