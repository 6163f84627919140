package org.bulwark.hdfs.balancer.exec;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a {@code Dispatcher} with every setting the stock balancer gives its own. Hadoop's public
 * constructor (the Mover's) fixes {@code dfs.balancer.block-move.timeout} at 0 and
 * {@code dfs.balancer.max-iteration-time} at unlimited, and the mover-thread lot size (threads per
 * target) is set only inside its private dispatch loop; the balancer's constructor and the lot size are
 * reached here by reflection, the one door Hadoop leaves. Should a Hadoop line change them, the public
 * constructor and one thread per target are used, and this says so once.
 */
final class DispatcherFactory {
  private static final Logger LOG = LoggerFactory.getLogger(DispatcherFactory.class);
  private static volatile boolean warnedConstructor;
  private static volatile boolean warnedLotSize;

  private DispatcherFactory() {
  }

  /**
   * @param pools the block pools whose dispatchers move at once: each gets its share of
   *     {@code dfs.balancer.moverThreads} and of {@code dfs.datanode.balance.max.concurrent.moves}, so that
   *     together they send a DataNode no more moves than it accepts (it refuses the rest, and a refused move
   *     counts as failed and delays both its nodes). The stock balancer moves one pool at a time.
   */
  static Dispatcher create(NameNodeConnector connector, BalancerSettings s, Configuration conf, int pools) {
    Set<String> in = s.includedHosts();
    Set<String> ex = s.excludedHosts();
    int threads = moverThreads(s, pools);
    int movesPerNode = movesPerNode(s, pools);
    try {
      // Hadoop 3.4 and later: with the hot-block time interval.
      Constructor<Dispatcher> c = Dispatcher.class.getDeclaredConstructor(NameNodeConnector.class, Set.class, Set.class,
          long.class, int.class, int.class, int.class, long.class, long.class, int.class, int.class, long.class,
          long.class, Configuration.class);
      c.setAccessible(true);
      return c.newInstance(connector, in, ex, s.movedWinWidth(), threads, 0, movesPerNode,
          s.getBlocksSize(), s.getBlocksMinBlockSize(), s.blockMoveTimeout(), s.maxNoMoveInterval(),
          s.maxIterationTime(), s.hotBlockTimeInterval(), conf);
    } catch (ReflectiveOperationException | RuntimeException e) {
      if (!warnedConstructor) {
        warnedConstructor = true;
        LOG.warn("Hadoop's balancer Dispatcher constructor is not the one expected ({}): dfs.balancer.block-move.timeout "
            + "and dfs.balancer.max-iteration-time are not applied to block moves", e.toString());
      }
      return new Dispatcher(connector, in, ex, s.movedWinWidth(), threads, 0, movesPerNode, s.maxNoMoveInterval(), conf);
    }
  }

  /** One pool's share of {@code dfs.balancer.moverThreads}, at least one. */
  static int moverThreads(BalancerSettings s, int pools) {
    return Math.max(1, s.moverThreads() / Math.max(1, pools));
  }

  /** One pool's share of {@code dfs.datanode.balance.max.concurrent.moves}, at least one. */
  static int movesPerNode(BalancerSettings s, int pools) {
    return Math.max(1, s.maxConcurrentMovesPerNode() / Math.max(1, pools));
  }

  /**
   * Shares the dispatcher's mover threads afresh among {@code targets} DataNodes, as the stock dispatch loop does
   * before its moves: the pool's share of {@code dfs.balancer.moverThreads} divided among the targets, at most its
   * share of {@code dfs.datanode.balance.max.concurrent.moves} each, at least one. The threads handed out before
   * are counted as free again: call it only once their executors are stopped ({@link MoverThreads#shutdown}).
   */
  static int applyThreadsPerTarget(Dispatcher dispatcher, BalancerSettings s, int pools, int targets) {
    int perTarget = Math.max(1, Math.min(movesPerNode(s, pools), moverThreads(s, pools) / Math.max(1, targets)));
    try {
      Field f = Dispatcher.class.getDeclaredField("moverThreadAllocator");
      f.setAccessible(true);
      Object allocator = f.get(dispatcher);
      Method reset = allocator.getClass().getDeclaredMethod("reset");
      reset.setAccessible(true);
      reset.invoke(allocator);
      Method set = allocator.getClass().getDeclaredMethod("setLotSize", int.class);
      set.setAccessible(true);
      set.invoke(allocator, perTarget);
      return perTarget;
    } catch (ReflectiveOperationException | RuntimeException e) {
      if (!warnedLotSize) {
        warnedLotSize = true;
        LOG.warn("Cannot set the dispatcher's threads per target ({}): one move at a time into each DataNode", e.toString());
      }
      return 1;
    }
  }
}
