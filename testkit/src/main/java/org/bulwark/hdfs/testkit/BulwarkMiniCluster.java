package org.bulwark.hdfs.testkit;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NameNodeRpcServer;
import org.apache.hadoop.io.IOUtils;

/**
 * An embedded HDFS cluster shaped like a real one, for Bulwark's tests, benchmarks and demo: racks and
 * datacenters from a {@link TopologySpec}, per-DataNode capacities, federation (several nameservices),
 * HA (several NameNodes per nameservice) with an in-process ZooKeeper, and the
 * {@link FastClusterSettings}. It wraps MiniDFSCluster (reachable through {@link #mini()}) and adds
 * what every Bulwark test needs on top: each DataNode on its own loopback address (so that a client
 * can run "on" a DataNode's host, see {@link WriteOrigin}), writes from such a host or from off-cluster,
 * byte-for-byte verification, block spread and utilisation figures, and stopping whole racks or
 * datacenters.
 *
 * <p>This class is the one entry point tests use; each job is done by a small class of its own
 * ({@link ClusterStarter}, {@link NameNodes}, {@link DataNodes}, {@link ClientCache},
 * {@link ClusterFiles}, {@link DataNodeFaults}, {@link AdminStates}, {@link ReplicationAwaits}).
 *
 * <pre>{@code
 * try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/dc1/r1:3,/dc2/r2:3").build()) {
 *   c.writeFile(new Path("/f"), 4 << 20, WriteOrigin.fromDataNode(c.dataNodes().get(0)));
 *   c.verifyFile(new Path("/f"), 4 << 20);
 * }
 * }</pre>
 */
public final class BulwarkMiniCluster implements AutoCloseable {
  private final MiniDFSCluster cluster;
  private final TestingServer zooKeeper;
  private final Configuration conf;
  private final TopologySpec topology;
  private final short replication;
  private final NameNodes nameNodes;
  private final DataNodes dataNodes;
  private final ClientCache clients;
  private final ClusterFiles files;
  private final DataNodeFaults faults;
  private final AdminStates adminStates;
  private final ReplicationAwaits awaits;

  BulwarkMiniCluster(Builder b, Configuration conf, TestingServer zooKeeper, MiniDFSCluster cluster,
      NameNodes nameNodes, DataNodeLayout layout) {
    this.cluster = cluster;
    this.zooKeeper = zooKeeper;
    this.conf = conf;
    this.topology = b.topology;
    this.replication = b.replication;
    this.nameNodes = nameNodes;
    this.dataNodes = new DataNodes(cluster, b.topology, layout.handles());
    this.clients = new ClientCache(conf, nameNodes);
    this.files = new ClusterFiles(clients, b.blockSize);
    this.faults = new DataNodeFaults(cluster, dataNodes, nameNodes, layout.capacityByHost());
    this.adminStates = new AdminStates(dataNodes, nameNodes);
    this.awaits = new ReplicationAwaits(clients, nameNodes);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Configures and starts a cluster. */
  public static final class Builder {
    // Read by ClusterStarter.
    TopologySpec topology = TopologySpec.parse("/dc1/r1:2,/dc1/r2:2,/dc2/r3:2");
    long defaultCapacity;
    final Map<Integer, Long> capacityOverrides = new HashMap<>();
    final Map<Integer, StorageType> storageTypes = new HashMap<>();
    int nameservices = 1;
    int nameNodesPerNameservice = 1;
    Boolean zooKeeper;
    boolean activateFirstNameNodes = true;
    short replication = 3;
    long blockSize = 1 << 20;
    boolean fastSettings = true;
    Class<? extends BlockPlacementPolicy> placementPolicy;
    File baseDir;
    boolean reuseStorage;
    final List<Consumer<Configuration>> configurers = new ArrayList<>();

    private Builder() {
    }

    /** Racks, datacenters and DataNodes, e.g. {@code /dc1/r1:3,/dc1/r2:3,/dc2/r3:2@1g}. */
    public Builder topology(String spec) {
      this.topology = TopologySpec.parse(spec);
      return this;
    }

    /** Capacity of every DataNode whose rack gives none in the spec (default: the disk's). */
    public Builder capacity(long bytes) {
      this.defaultCapacity = bytes;
      return this;
    }

    /** Capacity of the DataNode with index {@code dataNode} (spec order), over its rack's. */
    public Builder capacity(int dataNode, long bytes) {
      capacityOverrides.put(dataNode, bytes);
      return this;
    }

    /** The storage type of the DataNode with index {@code dataNode} (spec order); others have DISK. */
    public Builder storageType(int dataNode, StorageType type) {
      storageTypes.put(dataNode, type);
      return this;
    }

    /** Number of federated nameservices (default 1). */
    public Builder nameservices(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("nameservices must be at least 1, was " + count);
      }
      this.nameservices = count;
      return this;
    }

    /** NameNodes per nameservice; more than one makes each nameservice HA (default 1). */
    public Builder nameNodesPerNameservice(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("nameNodesPerNameservice must be at least 1, was " + count);
      }
      this.nameNodesPerNameservice = count;
      return this;
    }

    /** Whether to run an in-process ZooKeeper (default: when HA). */
    public Builder zooKeeper(boolean run) {
      this.zooKeeper = run;
      return this;
    }

    /**
     * Whether to make the first NameNode of each HA nameservice active once started (default true).
     * Turn off when a failover controller under test is to elect the active NameNode.
     */
    public Builder activateFirstNameNodes(boolean activate) {
      this.activateFirstNameNodes = activate;
      return this;
    }

    public Builder replication(int replication) {
      this.replication = (short) replication;
      return this;
    }

    /** Block size of files the kit writes (default 1 MiB). */
    public Builder blockSize(long bytes) {
      this.blockSize = bytes;
      return this;
    }

    /** Whether to apply {@link FastClusterSettings} (default true). */
    public Builder fastSettings(boolean apply) {
      this.fastSettings = apply;
      return this;
    }

    /** The NameNodes' {@code dfs.block.replicator.classname} (default: Hadoop's default policy). */
    public Builder placementPolicy(Class<? extends BlockPlacementPolicy> policy) {
      this.placementPolicy = policy;
      return this;
    }

    /**
     * Starts on the NameNode and DataNode storage already in {@link #baseDir(File)} instead of
     * formatting it: a copy of a stopped cluster's directory restarts that cluster's exact block
     * layout (benchmarks start every contender from one layout this way). The topology and
     * nameservices must be the ones the storage was made with.
     */
    public Builder reuseStorage() {
      this.reuseStorage = true;
      return this;
    }

    /** Where the cluster keeps its storage (default: a fresh directory under test.build.data). */
    public Builder baseDir(File dir) {
      this.baseDir = dir;
      return this;
    }

    /** Any other configuration, applied last (so it wins over the kit's settings). */
    public Builder configure(Consumer<Configuration> configurer) {
      configurers.add(configurer);
      return this;
    }

    public BulwarkMiniCluster build() throws IOException {
      return ClusterStarter.start(this);
    }
  }

  /** The wrapped MiniDFSCluster, for what the kit does not cover. */
  /**
   * Stops NameNode {@code index} (MiniDFSCluster's numbering) as a crash would: its client RPC server first, so that
   * a call in flight fails as with a dead process and the client fails over. MiniDFSCluster's orderly shutdown
   * closes the edit log while RPC handlers still run, and an {@code addBlock} in flight then met the closed log
   * (Hadoop's assertion in {@code FSEditLogAsync.logEdit}) and reached its client as a RemoteException it does not retry.
   */
  public void crashNameNode(int index) {
    NameNode nn = cluster.getNameNode(index);
    if (nn != null && nn.getRpcServer() instanceof NameNodeRpcServer) {
      ((NameNodeRpcServer) nn.getRpcServer()).getClientRpcServer().stop();
    }
    cluster.shutdownNameNode(index);
  }

  public MiniDFSCluster mini() {
    return cluster;
  }

  /** A copy of the client configuration (nameservices, failover proxy providers, kit settings). */
  public Configuration conf() {
    return new Configuration(conf);
  }

  public TopologySpec topology() {
    return topology;
  }

  /** Nameservice ids (ns1, ns2...), or a single null for one plain NameNode. */
  public List<String> nameservices() {
    return nameNodes.nameservices();
  }

  public int nameNodesPerNameservice() {
    return nameNodes.perNameservice();
  }

  /** MiniDFSCluster's index of NameNode {@code nn} (0-based) of nameservice {@code ns} (0-based). */
  public int nameNodeIndex(int ns, int nn) {
    return nameNodes.index(ns, nn);
  }

  public NameNode nameNode(int ns, int nn) {
    return nameNodes.nameNode(ns, nn);
  }

  /** The namesystem of the active NameNode of nameservice {@code ns}. */
  public FSNamesystem activeNamesystem(int ns) {
    return nameNodes.active(ns);
  }

  /** The URI clients use for nameservice {@code ns}: logical for HA, the NameNode's address otherwise. */
  public URI uri(int ns) {
    return nameNodes.uri(ns);
  }

  /**
   * An off-cluster client of nameservice {@code ns} (its connections leave from 127.0.0.1, where no
   * DataNode is), kept open until the cluster closes.
   */
  public DistributedFileSystem fs(int ns) throws IOException {
    return clients.client(ns, null);
  }

  /** A client of the first nameservice. */
  public DistributedFileSystem fs() throws IOException {
    return fs(0);
  }

  /**
   * A client of nameservice {@code ns} running on {@code dataNode}'s host: the NameNode takes it for a
   * writer local to that DataNode. Kept open until the cluster closes.
   */
  public DistributedFileSystem fsOn(int ns, DataNodeHandle dataNode) throws IOException {
    return clients.client(ns, dataNode);
  }

  /** The in-process ZooKeeper, or null when the cluster runs none. */
  public TestingServer zooKeeper() {
    return zooKeeper;
  }

  public String zooKeeperConnectString() {
    if (zooKeeper == null) {
      throw new IllegalStateException("this cluster runs no ZooKeeper: build it with zooKeeper(true)");
    }
    return zooKeeper.getConnectString();
  }

  /** Every DataNode of the topology, running or not, in spec order. */
  public List<DataNodeHandle> dataNodes() {
    return dataNodes.all();
  }

  public List<DataNodeHandle> dataNodesInRack(String rack) {
    return dataNodes.inRack(rack);
  }

  public List<DataNodeHandle> dataNodesInDatacenter(String datacenter) {
    return dataNodes.inDatacenter(datacenter);
  }

  /** The running DataNode behind {@code handle}, or null when it is stopped. */
  public DataNode running(DataNodeHandle handle) {
    return dataNodes.running(handle);
  }

  /** Writes {@code length} bytes of {@link FileContent} for {@code path} to the first nameservice. */
  public void writeFile(Path path, long length, WriteOrigin origin) throws IOException {
    writeFile(0, path, length, origin);
  }

  /** Writes {@code length} bytes of {@link FileContent} for {@code path} to nameservice {@code ns}. */
  public void writeFile(int ns, Path path, long length, WriteOrigin origin) throws IOException {
    writeFile(ns, path, length, origin, replication);
  }

  /** As {@link #writeFile(int, Path, long, WriteOrigin)}, with its own replication factor. */
  public void writeFile(int ns, Path path, long length, WriteOrigin origin, int replication) throws IOException {
    files.write(ns, path, length, origin, replication);
  }

  /** Reads {@code path} from the first nameservice and checks every byte; returns the bytes verified. */
  public long verifyFile(Path path, long length) throws IOException {
    return verifyFile(0, path, length);
  }

  public long verifyFile(int ns, Path path, long length) throws IOException {
    return files.verify(ns, path, length);
  }

  /** How the blocks under {@code dir} of nameservice {@code ns} are spread over racks and datacenters. */
  public BlockSpread blockSpread(int ns, Path dir) throws IOException {
    return BlockSpread.of(fs(ns), dir);
  }

  /** DataNode and rack utilisation, all block pools together. */
  public Utilisation utilisation() throws IOException {
    return Utilisation.of(fs(0));
  }

  /** Number of DataNodes the active NameNode of nameservice {@code ns} counts as live. */
  public int liveDataNodes(int ns) throws IOException {
    return fs(ns).getDataNodeStats(DatanodeReportType.LIVE).length;
  }

  /** Stops every running DataNode of {@code rack} (as a power loss would; the NameNodes notice later). */
  public StoppedDataNodes stopRack(String rack) {
    return faults.stopRack(rack);
  }

  /** Stops every running DataNode of {@code datacenter}. */
  public StoppedDataNodes stopDatacenter(String datacenter) {
    return faults.stopDatacenter(datacenter);
  }

  /** Kills {@code handles} as a crashed process dies, connections reset at once: {@link DataNodeFaults#kill}. */
  public StoppedDataNodes kill(List<DataNodeHandle> handles) {
    return faults.kill(handles);
  }

  /** Stops {@code handles} gracefully, in-flight transfers draining first. */
  public StoppedDataNodes stop(List<DataNodeHandle> handles) {
    return faults.stop(handles);
  }

  /** Makes every running NameNode declare {@code stopped} dead now: {@link DataNodeFaults#declareDead}. */
  public void declareDead(StoppedDataNodes stopped) throws IOException {
    faults.declareDead(stopped);
  }

  /** Restarts {@code stopped} on their old ports (same identity, same rack) and waits until registered. */
  public void restart(StoppedDataNodes stopped) throws IOException {
    faults.restart(stopped);
  }

  /** Waits until every block under {@code dir} has all its replicas: {@link ReplicationAwaits#awaitReplication}. */
  public void awaitReplication(int ns, Path dir, Duration timeout) throws TimeoutException, InterruptedException {
    awaits.awaitReplication(ns, dir, timeout);
  }

  /** Waits until nameservice {@code ns} has checked every block's placement: {@link ReplicationAwaits#awaitPlacementChecked}. */
  public void awaitPlacementChecked(int ns, Duration timeout) throws TimeoutException, InterruptedException {
    awaits.awaitPlacementChecked(ns, timeout);
  }

  /** Waits until nameservice {@code ns} has no missing, under-replicated or pending-reconstruction block. */
  public void awaitFullyReplicated(int ns, Duration timeout) throws TimeoutException, InterruptedException {
    awaits.awaitFullyReplicated(ns, timeout);
  }

  /** Starts decommissioning {@code nodes} at every running NameNode: {@link AdminStates#startDecommission}. */
  public void startDecommission(List<DataNodeHandle> nodes) throws IOException {
    adminStates.startDecommission(nodes);
  }

  /** Puts {@code nodes} into maintenance (without expiry) at every running NameNode. */
  public void startMaintenance(List<DataNodeHandle> nodes) throws IOException {
    adminStates.startMaintenance(nodes);
  }

  /** Whether the active NameNode of nameservice {@code ns} has {@code node} in maintenance. */
  public boolean isInMaintenance(int ns, DataNodeHandle node) {
    return adminStates.isInMaintenance(ns, node);
  }

  /** Whether the active NameNode of nameservice {@code ns} has finished decommissioning {@code node}. */
  public boolean isDecommissioned(int ns, DataNodeHandle node) {
    return adminStates.isDecommissioned(ns, node);
  }

  @Override
  public void close() {
    shutdown(true);
  }

  /**
   * Stops the cluster and leaves its storage in the base directory, for {@link Builder#reuseStorage()}.
   */
  public void closeKeepingStorage() {
    shutdown(false);
  }

  private void shutdown(boolean deleteStorage) {
    clients.close();
    cluster.shutdown(deleteStorage);
    IOUtils.closeStream(zooKeeper);
  }
}
