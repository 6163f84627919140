package org.bulwark.hdfs.balancer.exec;

import static org.bulwark.hdfs.balancer.exec.SubmissionLoop.Offer.ACCEPTED;
import static org.bulwark.hdfs.balancer.exec.SubmissionLoop.Offer.DROPPED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher;
import org.apache.hadoop.hdfs.server.balancer.Dispatcher.DDatanode;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.BlockWithLocations;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@link PoolMover} hands Hadoop's dispatcher its mover threads, against a real NameNode (for the connector)
 * and DataNodes that exist only in the node table: every move fails at connect, which is enough to see which
 * target got threads. Storage types run one after another through one dispatcher per pool, and the pools of a
 * federated cluster at once.
 */
class PoolMoverThreadsIT {
  @TempDir
  static File dir;
  private static MiniDFSCluster cluster;
  private final List<PoolMover> movers = new ArrayList<>();
  private final List<NameNodeConnector> connectors = new ArrayList<>();

  @BeforeAll
  static void startNameNode() throws Exception {
    // One DataNode: the connector writes its id file.
    cluster = new MiniDFSCluster.Builder(new HdfsConfiguration(), dir).numDataNodes(1).build();
    cluster.waitActive();
    // A failed move would otherwise keep its source out of the next move for 10 s.
    Dispatcher.setDelayAfterErrors(-1000);
  }

  @AfterAll
  static void stopNameNode() {
    Dispatcher.setDelayAfterErrors(10_000);
    cluster.shutdown();
  }

  @AfterEach
  void closeMovers() throws Exception {
    movers.forEach(PoolMover::close);
    for (NameNodeConnector c : connectors) {
      c.close();
    }
  }

  private PoolMover mover(Configuration conf, int pools, NodeTable table) throws Exception {
    Configuration c = new Configuration(cluster.getConfiguration(0));
    conf.forEach(e -> c.set(e.getKey(), e.getValue()));
    NameNodeConnector connector = new NameNodeConnector("PoolMoverThreadsIT", cluster.getURI(0),
        new Path("/system/mover-threads-" + connectors.size() + ".id"), Collections.emptyList(), c, 5);
    connectors.add(connector);
    PoolMover m = new PoolMover(connector, new BalancerSettings(c), c, pools);
    movers.add(m);
    for (int n = 0; n < table.size(); n++) {
      m.register(table, n);
    }
    return m;
  }

  /** DataNode i on rack /r(i%3) with one storage of {@code types[i]}, its transfer port 1 (nothing listens). */
  private static NodeTable table(StorageType... types) {
    DatanodeStorageReport[] reports = new DatanodeStorageReport[types.length];
    for (int i = 0; i < types.length; i++) {
      DatanodeInfo dn = new DatanodeInfo.DatanodeInfoBuilder()
          .setNodeID(new DatanodeID("127.0.0." + (i + 1), "h" + i, "uuid-" + i, 1, 0, 0, 0))
          .setNetworkLocation("/r" + (i % 3)).build();
      StorageReport s = new StorageReport(new DatanodeStorage("s" + i, DatanodeStorage.State.NORMAL, types[i]),
          false, 1L << 40, 0, 1L << 40, 0, 0);
      reports[i] = new DatanodeStorageReport(dn, new StorageReport[] {s});
    }
    return new NodeTable(reports, Collections.emptyMap());
  }

  private static BlockWithLocations block(long id, int holder, StorageType type) {
    return new BlockWithLocations(new Block(id, 1 << 20, 1), new String[] {"uuid-" + holder},
        new String[] {"s" + holder}, new StorageType[] {type});
  }

  @SuppressWarnings("unchecked")
  private static ExecutorService executorOf(PoolMover mover, String uuid) throws Exception {
    Field f = PoolMover.class.getDeclaredField("datanodes");
    f.setAccessible(true);
    DDatanode d = ((Map<String, DDatanode>) f.get(mover)).get(uuid);
    Method m = DDatanode.class.getDeclaredMethod("getMoveExecutor");
    m.setAccessible(true);
    return (ExecutorService) m.invoke(d);
  }

  /**
   * At the defaults (1,000 mover threads, 100 moves per DataNode) ten DISK targets take every thread. The ARCHIVE
   * moves come after the DISK moves are over, and their targets get threads of their own: Hadoop dropped them
   * before, logging "No mover threads available", and the balancer counted them as handed over.
   */
  @Test
  void aLaterStorageTypesTargetsGetMoverThreads() throws Exception {
    StorageType[] types = new StorageType[13];
    Arrays.fill(types, StorageType.DISK);
    types[11] = StorageType.ARCHIVE;
    types[12] = StorageType.ARCHIVE;
    PoolMover mover = mover(new Configuration(false), 1, table(types));
    mover.threadsForTargets(10);
    for (int t = 1; t <= 10; t++) {
      assertEquals(ACCEPTED, mover.submit(block(t, 0, StorageType.DISK), "uuid-0", "uuid-" + t, StorageType.DISK));
    }
    mover.awaitMoves();
    mover.threadsForTargets(1);
    assertEquals(ACCEPTED, mover.submit(block(100, 11, StorageType.ARCHIVE), "uuid-11", "uuid-12", StorageType.ARCHIVE));
    assertNotNull(executorOf(mover, "uuid-12"), "the ARCHIVE target has mover threads");
  }

  /** Where the threads run out all the same (more targets than threads), a move Hadoop drops is given up. */
  @Test
  void aMoveDroppedForWantOfThreadsIsRefused() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(DFSConfigKeys.DFS_BALANCER_MOVERTHREADS_KEY, 2);
    PoolMover mover = mover(conf, 1, table(StorageType.DISK, StorageType.DISK, StorageType.DISK, StorageType.DISK));
    mover.threadsForTargets(3);
    assertEquals(ACCEPTED, mover.submit(block(1, 0, StorageType.DISK), "uuid-0", "uuid-1", StorageType.DISK));
    assertEquals(ACCEPTED, mover.submit(block(2, 0, StorageType.DISK), "uuid-0", "uuid-2", StorageType.DISK));
    assertEquals(DROPPED, mover.submit(block(3, 0, StorageType.DISK), "uuid-0", "uuid-3",
        StorageType.DISK), "no thread was left for the third target");
  }

  /**
   * Two block pools move at once, each through its own dispatcher; together they send a DataNode no more moves
   * than {@code dfs.datanode.balance.max.concurrent.moves}, which it would otherwise refuse.
   */
  @Test
  void poolsMovingAtOnceShareEachDataNodesConcurrentMoves() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(DFSConfigKeys.DFS_DATANODE_BALANCE_MAX_NUM_CONCURRENT_MOVES_KEY, 2);
    NodeTable table = table(StorageType.DISK, StorageType.DISK);
    int threadsIntoTarget = 0;
    for (int pool = 0; pool < 2; pool++) {
      PoolMover mover = mover(conf, 2, table);
      mover.threadsForTargets(1);
      assertEquals(ACCEPTED, mover.submit(block(pool * 10 + 1, 0, StorageType.DISK), "uuid-0", "uuid-1", StorageType.DISK));
      threadsIntoTarget += ((ThreadPoolExecutor) executorOf(mover, "uuid-1")).getMaximumPoolSize();
    }
    assertEquals(2, threadsIntoTarget);
  }
}
