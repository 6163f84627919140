package org.bulwark.hdfs.balancer.exec;

import java.lang.reflect.Method;
import java.util.Collection;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher.DDatanode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the per-DataNode mover thread pools a {@code Dispatcher} starts on its first move to a
 * node. Hadoop stops them only from package-private code (the stock balancer's reset, or never:
 * the Mover exits the JVM), so a long-running caller such as {@code -asService} would otherwise
 * keep one idle non-daemon thread per DataNode per round, and a caller in a shared JVM would
 * never exit. If a future Hadoop renames the method, the threads are left and this says so once.
 */
final class MoverThreads {
  private static final Logger LOG = LoggerFactory.getLogger(MoverThreads.class);
  private static volatile boolean warned;

  private MoverThreads() {
  }

  static void shutdown(Collection<DDatanode> datanodes) {
    try {
      Method m = DDatanode.class.getDeclaredMethod("shutdownMoveExecutor");
      m.setAccessible(true);
      for (DDatanode dn : datanodes) {
        m.invoke(dn);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      if (!warned) {
        warned = true;
        LOG.warn("Cannot stop the dispatcher's mover threads ({}); they stay idle until the JVM exits", e.toString());
      }
    }
  }

  /**
   * Whether the dispatcher has mover threads for moves into {@code target}. When its pool of threads is used up,
   * Hadoop drops a move to a target without threads (it logs "No mover threads available") and returns as if it
   * had taken it. True where this Hadoop line cannot tell.
   */
  static boolean running(DDatanode target) {
    try {
      Method m = DDatanode.class.getDeclaredMethod("getMoveExecutor");
      m.setAccessible(true);
      return m.invoke(target) != null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return true;
    }
  }
}
