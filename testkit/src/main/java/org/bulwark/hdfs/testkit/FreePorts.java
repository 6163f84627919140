package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports for daemons that must keep their address across restarts (NameNodes, controllers, a forked
 * monitor, a restarted ZooKeeper), picked below the kernel's ephemeral range (32768-60999 on Linux): a port
 * picked inside it can be taken by any outgoing connection or port-0 bind of any JVM on this machine between
 * the pick and the daemon's bind (or while a daemon restarting on its port is down), which made tests fail with
 * "Address already in use". And above 14000: MiniQJMHACluster binds its NameNodes at random from 10000-13999
 * (retrying only its own bind), so a port picked there could be taken while its daemon is down.
 */
public final class FreePorts {
  /**
   * Test JVMs running side by side each pick from a slice of their own: two picking from one range took the same free
   * port, and the later bind failed. A slice per module ({@code bulwark.test.port-slot}, 0-3, set in each module's POM,
   * as modules build side by side under {@code mvn -T}) and per surefire fork in it ({@code bulwark.test.fork=fork-N},
   * N 1-4).
   */
  private static final int SLOTS = 4;
  private static final int FORKS = 4;
  private static final int LOW;
  private static final int HIGH;
  private static int next;

  static {
    int low = 14_000;
    int high = 32_000;
    String digits = System.getProperty("bulwark.test.fork", "").replaceAll("[^0-9]", "");
    int fork = digits.isEmpty() ? 0 : Integer.parseInt(digits);
    if (fork > 0) {
      int slot = Integer.getInteger("bulwark.test.port-slot", 0);
      int width = (high - low) / (SLOTS * FORKS);
      low += ((slot % SLOTS) * FORKS + (fork - 1) % FORKS) * width;
      high = low + width;
    }
    LOW = low;
    HIGH = high;
    next = LOW + ThreadLocalRandom.current().nextInt(HIGH - LOW);
  }

  private FreePorts() {
  }

  /** {@code count} distinct ports nothing listens on now. */
  public static synchronized int[] pick(int count) {
    int[] ports = new int[count];
    for (int i = 0; i < count; i++) {
      ports[i] = nextFree();
    }
    return ports;
  }

  /** One port nothing listens on now. */
  public static int pick() {
    return pick(1)[0];
  }

  private static int nextFree() {
    for (int tries = 0; tries < HIGH - LOW; tries++) {
      int port = next;
      next = next + 1 < HIGH ? next + 1 : LOW;
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("0.0.0.0"))) {
        s.setReuseAddress(true);
        return port;
      } catch (IOException inUse) {
        // taken: try the next one
      }
    }
    throw new IllegalStateException("no free port between " + LOW + " and " + HIGH);
  }
}
