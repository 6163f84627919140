package org.bulwark.hdfs.hotstandby;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.ha.BadFencingConfigurationException;
import org.apache.hadoop.ha.FenceMethod;
import org.apache.hadoop.ha.HAServiceTarget;

/**
 * A fencing method for tests, configured as {@code dfs.ha.fencing.methods=org.bulwark.hdfs.hotstandby.KillingFenceMethod}:
 * it does what {@code sshfence} does to a real NameNode, kill its process, to an in-process one. Tests
 * register what "killing" means for the service RPC port of each NameNode.
 */
public final class KillingFenceMethod extends Configured implements FenceMethod {
  private static final Map<Integer, Runnable> KILLERS = new ConcurrentHashMap<>();

  static void register(int servicePort, Runnable kill) {
    KILLERS.put(servicePort, kill);
  }

  static void clear() {
    KILLERS.clear();
  }

  @Override
  public void checkArgs(String args) throws BadFencingConfigurationException {
  }

  @Override
  public boolean tryFence(HAServiceTarget target, String args) {
    Runnable kill = KILLERS.get(target.getAddress().getPort());
    if (kill == null) {
      return false;
    }
    kill.run();
    return true;
  }
}
