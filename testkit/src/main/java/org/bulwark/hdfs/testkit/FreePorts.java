package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports for daemons that must keep their address across restarts (NameNodes, controllers, a forked
 * monitor), picked below the kernel's ephemeral range (32768-60999 on Linux): a port picked inside it can
 * be taken by any outgoing connection between the pick and the daemon's bind, which made tests fail with
 * "Address already in use".
 */
public final class FreePorts {
  private static final int LOW = 10_000;
  private static final int HIGH = 32_000;
  private static int next = LOW + ThreadLocalRandom.current().nextInt(HIGH - LOW);

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
