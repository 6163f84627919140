package org.bulwark.hdfs.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeAdminManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsVolumeImpl;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NameNodeAdapter;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.apache.hadoop.io.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <pre>{@code
 * try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/dc1/r1:3,/dc2/r2:3").build()) {
 *   c.writeFile(new Path("/f"), 4 << 20, WriteOrigin.fromDataNode(c.dataNodes().get(0)));
 *   c.verifyFile(new Path("/f"), 4 << 20);
 * }
 * }</pre>
 */
public final class BulwarkMiniCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BulwarkMiniCluster.class);
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final MiniDFSCluster cluster;
  private final TestingServer zooKeeper;
  private final Configuration conf;
  private final TopologySpec topology;
  private final List<String> nameservices;
  private final int nameNodesPerNameservice;
  private final int[][] nameNodeIndexes;
  private final List<DataNodeHandle> dataNodes;
  private final Map<String, Long> capacityByHost;
  /** Guarded by itself, not by the cluster: clients must not wait while DataNodes stop or start. */
  private final Map<String, DistributedFileSystem> fileSystems = new HashMap<>();
  private final short replication;
  private final long blockSize;

  private BulwarkMiniCluster(Builder b, Configuration conf, TestingServer zooKeeper, List<String> nameservices,
      List<DataNodeHandle> dataNodes, Map<String, Long> capacityByHost, MiniDFSCluster cluster) {
    this.conf = conf;
    this.zooKeeper = zooKeeper;
    this.topology = b.topology;
    this.nameservices = Collections.unmodifiableList(new ArrayList<>(nameservices));
    this.nameNodesPerNameservice = b.nameNodesPerNameservice;
    this.nameNodeIndexes = nameNodeIndexes(cluster, nameservices, b.nameNodesPerNameservice);
    this.dataNodes = List.copyOf(dataNodes);
    this.capacityByHost = Map.copyOf(capacityByHost);
    this.cluster = cluster;
    this.replication = b.replication;
    this.blockSize = b.blockSize;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Configures and starts a cluster. */
  public static final class Builder {
    private TopologySpec topology = TopologySpec.parse("/dc1/r1:2,/dc1/r2:2,/dc2/r3:2");
    private long defaultCapacity;
    private final Map<Integer, Long> capacityOverrides = new HashMap<>();
    private final Map<Integer, StorageType> storageTypes = new HashMap<>();
    private int nameservices = 1;
    private int nameNodesPerNameservice = 1;
    private Boolean zooKeeper;
    private boolean activateFirstNameNodes = true;
    private short replication = 3;
    private long blockSize = 1 << 20;
    private boolean fastSettings = true;
    private Class<? extends BlockPlacementPolicy> placementPolicy;
    private File baseDir;
    private boolean reuseStorage;
    private final List<Consumer<Configuration>> configurers = new ArrayList<>();

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
      if (reuseStorage && baseDir == null) {
        throw new IllegalArgumentException("reuseStorage() needs baseDir(dir) naming the storage to start on");
      }
      int seq = SEQUENCE.incrementAndGet();
      Configuration conf = new HdfsConfiguration();
      if (fastSettings) {
        FastClusterSettings.apply(conf);
      }
      conf.setLong("dfs.blocksize", blockSize);
      conf.setInt("dfs.replication", replication);
      if (placementPolicy != null) {
        conf.set("dfs.block.replicator.classname", placementPolicy.getName());
      }
      File dir = baseDir != null ? baseDir
          : new File(System.getProperty("test.build.data", System.getProperty("java.io.tmpdir")), "bulwark-cluster-" + seq);
      conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.getAbsolutePath());
      boolean ha = nameNodesPerNameservice > 1;

      TestingServer zk = null;
      MiniDFSCluster cluster = null;
      try {
        if (zooKeeper != null ? zooKeeper : ha) {
          zk = new TestingServer(true);
          conf.set("ha.zookeeper.quorum", zk.getConnectString());
        }
        List<String> nsIds = new ArrayList<>();
        MiniDFSNNTopology nnTopology = nameNodeTopology(nsIds, ha);
        for (String ns : nsIds) {
          if (ha) {
            conf.set("dfs.client.failover.proxy.provider." + ns, ConfiguredFailoverProxyProvider.class.getName());
          }
        }
        configurers.forEach(c -> c.accept(conf));

        List<TopologySpec.Rack> rackOf = topology.rackOfEachDataNode();
        int n = rackOf.size();
        String[] racks = new String[n];
        String[] hosts = new String[n];
        long[][] capacities = new long[n][];
        Configuration[] dnOverlays = new Configuration[n];
        List<DataNodeHandle> handles = new ArrayList<>();
        Map<String, Long> capacityByHost = new HashMap<>();
        int withCapacity = 0;
        for (int i = 0; i < n; i++) {
          TopologySpec.Rack rack = rackOf.get(i);
          racks[i] = rack.path();
          // Unique per cluster: StaticMapping, which maps host names to racks, is JVM-wide.
          hosts[i] = String.format("dn%02d.c%d.bulwark.test", i, seq);
          String ip = dataNodeAddress(i);
          dnOverlays[i] = dataNodeOverlay(ip);
          long capacity = capacityOverrides.getOrDefault(i, rack.capacityBytes() > 0 ? rack.capacityBytes() : defaultCapacity);
          capacities[i] = new long[] {capacity};
          if (capacity > 0) {
            withCapacity++;
            capacityByHost.put(hosts[i], capacity);
          }
          handles.add(new DataNodeHandle(i, hosts[i], ip, rack.path(), rack.datacenter()));
        }
        if (withCapacity != 0 && withCapacity != n) {
          throw new IllegalArgumentException("topology " + topology + " gives a capacity to " + withCapacity + " of " + n
              + " DataNodes: give every rack one, or set a default with capacity(bytes)");
        }

        MiniDFSCluster.Builder mb = new MiniDFSCluster.Builder(conf, dir)
            .nnTopology(nnTopology)
            .numDataNodes(n)
            .racks(racks)
            .hosts(hosts)
            .storagesPerDatanode(1)
            .dataNodeConfOverlays(dnOverlays)
            .checkDataNodeAddrConfig(true)
            .format(!reuseStorage);
        if (withCapacity > 0) {
          mb.storageCapacities(capacities);
        }
        if (!storageTypes.isEmpty()) {
          StorageType[][] types = new StorageType[n][];
          for (int i = 0; i < n; i++) {
            types[i] = new StorageType[] {storageTypes.getOrDefault(i, StorageType.DISK)};
          }
          mb.storageTypes(types);
        }
        cluster = mb.build();
        cluster.waitActive();
        if (ha) {
          // MiniDFSCluster leaves fs.defaultFS at the last NameNode it configured; a client of an HA
          // nameservice names it by its logical URI.
          conf.set("fs.defaultFS", "hdfs://" + nsIds.get(0));
        }
        if (ha && activateFirstNameNodes) {
          int[][] indexes = nameNodeIndexes(cluster, nsIds, nameNodesPerNameservice);
          for (int[] ofNameservice : indexes) {
            cluster.transitionToActive(ofNameservice[0]);
          }
          // A NameNode that becomes active treats every storage as stale until its next full block
          // report (getBlocks skips them): report now rather than in dfs.blockreport.intervalMsec.
          cluster.triggerBlockReports();
        }
        return new BulwarkMiniCluster(this, conf, zk, nsIds, handles, capacityByHost, cluster);
      } catch (Exception e) {
        // Nothing half-started is left behind.
        if (cluster != null) {
          cluster.shutdown();
        }
        IOUtils.closeStream(zk);
        if (e instanceof IOException) {
          throw (IOException) e;
        }
        if (e instanceof RuntimeException) {
          throw (RuntimeException) e;
        }
        throw new IOException("cannot start the embedded cluster", e);
      }
    }

    /** DataNode {@code i}'s own loopback address: 127.1.x.y, never 127.0.0.1, where off-cluster clients are. */
    private static String dataNodeAddress(int i) {
      if (i >= 200 * 256) {
        throw new IllegalArgumentException("the kit gives at most " + 200 * 256 + " DataNodes their own address");
      }
      return "127.1." + (i / 200) + "." + (10 + i % 200);
    }

    /** A DataNode that listens on, and connects from, its own address. */
    /**
     * A DataNode's addresses: its own loopback IP, and fixed ports below the ephemeral range. A restarted
     * DataNode binds the ports it had; with ports picked by the kernel, an outgoing connection of a client
     * "on that host" (bound to the same IP) could have been given one of them meanwhile.
     */
    private static Configuration dataNodeOverlay(String ip) {
      Configuration overlay = new Configuration(false);
      int[] ports = FreePorts.pick(3);
      overlay.set("dfs.datanode.address", ip + ":" + ports[0]);
      overlay.set("dfs.datanode.ipc.address", ip + ":" + ports[1]);
      overlay.set("dfs.datanode.http.address", ip + ":" + ports[2]);
      LoopbackSocketFactory.configure(overlay, ip);
      return overlay;
    }

    /**
     * Nameservices ns1..nsN with NameNodes nn1..nnM each, on fixed free ports so that a restarted
     * NameNode keeps its address. A single plain NameNode gets no nameservice id, as in a small cluster.
     */
    private MiniDFSNNTopology nameNodeTopology(List<String> nsIds, boolean ha) throws IOException {
      if (nameservices == 1 && !ha) {
        nsIds.add(null);
        return MiniDFSNNTopology.simpleSingleNN(0, 0);
      }
      int[] ports = FreePorts.pick(2 * nameservices * nameNodesPerNameservice);
      MiniDFSNNTopology t = new MiniDFSNNTopology();
      int p = 0;
      for (int s = 1; s <= nameservices; s++) {
        MiniDFSNNTopology.NSConf ns = new MiniDFSNNTopology.NSConf("ns" + s);
        for (int m = 1; m <= nameNodesPerNameservice; m++) {
          ns.addNN(new MiniDFSNNTopology.NNConf(ha ? "nn" + m : null).setIpcPort(ports[p++]).setHttpPort(ports[p++]));
        }
        t.addNameservice(ns);
        nsIds.add("ns" + s);
      }
      return t.setFederation(nameservices > 1);
    }
  }

  /** The wrapped MiniDFSCluster, for what the kit does not cover. */
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
    return nameservices;
  }

  public int nameNodesPerNameservice() {
    return nameNodesPerNameservice;
  }

  /** MiniDFSCluster's index of NameNode {@code nn} (0-based) of nameservice {@code ns} (0-based). */
  public int nameNodeIndex(int ns, int nn) {
    return nameNodeIndexes[ns][nn];
  }

  /**
   * Where MiniDFSCluster keeps each NameNode: its list follows a hash map of nameservice ids, not the
   * order the nameservices were configured in (with two, ns2's NameNodes may come first).
   */
  private static int[][] nameNodeIndexes(MiniDFSCluster cluster, List<String> nameservices, int perNameservice) {
    int[][] indexes = new int[nameservices.size()][perNameservice];
    MiniDFSCluster.NameNodeInfo[] infos = cluster.getNameNodeInfos();
    for (int i = 0; i < infos.length; i++) {
      int ns = nameservices.indexOf(infos[i].getNameserviceId());
      String nnId = infos[i].getNamenodeId();
      int nn = nnId == null ? 0 : Integer.parseInt(nnId.substring("nn".length())) - 1;
      indexes[ns < 0 ? 0 : ns][nn] = i;
    }
    return indexes;
  }

  public NameNode nameNode(int ns, int nn) {
    return cluster.getNameNode(nameNodeIndex(ns, nn));
  }

  /** The URI clients use for nameservice {@code ns}: logical for HA, the NameNode's address otherwise. */
  public URI uri(int ns) {
    if (nameNodesPerNameservice > 1) {
      return URI.create("hdfs://" + nameservices.get(ns));
    }
    return cluster.getURI(nameNodeIndex(ns, 0));
  }

  /**
   * An off-cluster client of nameservice {@code ns} (its connections leave from 127.0.0.1, where no
   * DataNode is), kept open until the cluster closes.
   */
  public DistributedFileSystem fs(int ns) throws IOException {
    return client(ns, null);
  }

  /**
   * A client of nameservice {@code ns} running on {@code dataNode}'s host: the NameNode takes it for a
   * writer local to that DataNode. Kept open until the cluster closes.
   */
  public DistributedFileSystem fsOn(int ns, DataNodeHandle dataNode) throws IOException {
    return client(ns, dataNode);
  }

  private DistributedFileSystem client(int ns, DataNodeHandle host) throws IOException {
    String key = ns + "@" + (host == null ? "off-cluster" : host.ipAddress());
    synchronized (fileSystems) {
      DistributedFileSystem fs = fileSystems.get(key);
      if (fs == null) {
        Configuration clientConf = new Configuration(conf);
        LoopbackSocketFactory.configure(clientConf, host == null ? "127.0.0.1" : host.ipAddress());
        fs = (DistributedFileSystem) FileSystem.newInstance(uri(ns), clientConf);
        fileSystems.put(key, fs);
      }
      return fs;
    }
  }

  /** A client of the first nameservice. */
  public DistributedFileSystem fs() throws IOException {
    return fs(0);
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
    return dataNodes;
  }

  public List<DataNodeHandle> dataNodesInRack(String rack) {
    List<DataNodeHandle> out = dataNodes.stream().filter(d -> d.rack().equals(rack)).toList();
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no rack " + rack + " in topology " + topology);
    }
    return out;
  }

  public List<DataNodeHandle> dataNodesInDatacenter(String datacenter) {
    List<DataNodeHandle> out = dataNodes.stream().filter(d -> d.datacenter().equals(datacenter)).toList();
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no datacenter " + datacenter + " in topology " + topology);
    }
    return out;
  }

  /** The running DataNode behind {@code handle}, or null when it is stopped. */
  public DataNode running(DataNodeHandle handle) {
    for (DataNode dn : cluster.getDataNodes()) {
      // The address is known from start-up on; the DatanodeID only once registered.
      if (dn.getXferAddress().getAddress().getHostAddress().equals(handle.ipAddress())) {
        return dn;
      }
    }
    return null;
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
    DistributedFileSystem fs = origin instanceof WriteOrigin.OnDataNode on ? fsOn(ns, on.dataNode()) : fs(ns);
    try (OutputStream out = fs.createFile(path).overwrite(true).recursive()
        .replication((short) replication).blockSize(blockSize).build()) {
      FileContent.write(path.toUri().getPath(), length, out);
    }
  }

  /** Reads {@code path} from the first nameservice and checks every byte; returns the bytes verified. */
  public long verifyFile(Path path, long length) throws IOException {
    return verifyFile(0, path, length);
  }

  public long verifyFile(int ns, Path path, long length) throws IOException {
    try (InputStream in = fs(ns).open(path)) {
      return FileContent.verify(path.toUri().getPath(), length, in);
    }
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
    return stop(dataNodesInRack(rack));
  }

  /** Stops every running DataNode of {@code datacenter}. */
  public StoppedDataNodes stopDatacenter(String datacenter) {
    return stop(dataNodesInDatacenter(datacenter));
  }

  /**
   * Kills {@code handles} as a crashed DataNode process dies: every connection it holds is reset at once
   * (what the kernel does to a killed process's sockets, which clients and pipelines react to within
   * milliseconds), then it stops. {@link #stop} is a graceful stop, during which in-flight transfers
   * drain for seconds, as {@code hdfs --daemon stop datanode} would.
   */
  public synchronized StoppedDataNodes kill(List<DataNodeHandle> handles) {
    for (DataNodeHandle h : handles) {
      DataNode dn = running(h);
      if (dn != null) {
        resetConnections(dn);
      }
    }
    return stop(handles);
  }

  /**
   * What the kernel does to a killed DataNode: its threads stop ({@code shouldRun}), its transfer port
   * refuses connections ({@code DataXceiverServer.kill}) and every open connection is reset
   * ({@code closeAllPeers}). Hadoop keeps all three package-private; the kit reaches them by
   * reflection, for tests only.
   */
  private static void resetConnections(DataNode dn) {
    try {
      java.lang.reflect.Field shouldRun = DataNode.class.getDeclaredField("shouldRun");
      shouldRun.setAccessible(true);
      shouldRun.setBoolean(dn, false);
      Object server = dn.getXferServer();
      for (String step : new String[] {"kill", "closeAllPeers"}) {
        java.lang.reflect.Method m = server.getClass().getDeclaredMethod(step);
        m.setAccessible(true);
        m.invoke(server);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot reset the connections of " + dn + " (Hadoop's DataXceiverServer changed?)", e);
    }
  }

  public synchronized StoppedDataNodes stop(List<DataNodeHandle> handles) {
    List<StoppedDataNodes.Stopped> stopped = new ArrayList<>();
    for (DataNodeHandle h : handles) {
      DataNode dn = running(h);
      if (dn != null) {
        DatanodeID id = dn.getDatanodeId();
        DataNodeProperties props = cluster.stopDataNode(id.getXferAddr());
        stopped.add(new StoppedDataNodes.Stopped(h, id, props));
      }
    }
    return new StoppedDataNodes(stopped);
  }

  /**
   * Makes every running NameNode declare {@code stopped} dead now, as it would on its own once their
   * heartbeats expire (10 heartbeats plus two rechecks later), so tests need not wait for it.
   */
  public void declareDead(StoppedDataNodes stopped) throws IOException {
    for (int i = 0; i < cluster.getNumNameNodes(); i++) {
      if (!cluster.isNameNodeUp(i)) {
        continue;
      }
      FSNamesystem fsn = cluster.getNamesystem(i);
      for (StoppedDataNodes.Stopped s : stopped.nodes()) {
        DatanodeDescriptor d = NameNodeAdapter.getDatanode(fsn, s.id());
        if (d != null) {
          DFSTestUtil.setDatanodeDead(d);
        }
      }
      BlockManagerTestUtil.checkHeartbeat(fsn.getBlockManager());
    }
  }

  /** Restarts {@code stopped} on their old ports (same identity, same rack) and waits until registered. */
  public synchronized void restart(StoppedDataNodes stopped) throws IOException {
    for (StoppedDataNodes.Stopped s : stopped.nodes()) {
      cluster.restartDataNode(s.properties(), true);
      DataNode dn = running(s.handle());
      Long capacity = capacityByHost.get(s.handle().hostName());
      if (capacity != null) {
        // MiniDFSCluster re-applies capacities by list position, which a restart shuffles.
        try (FsDatasetSpi.FsVolumeReferences volumes = dn.getFSDataset().getFsVolumeReferences()) {
          for (FsVolumeSpi v : volumes) {
            ((FsVolumeImpl) v).setCapacityForTesting(capacity);
          }
        }
      }
    }
    cluster.triggerHeartbeats();
    cluster.waitActive();
  }

  /**
   * Waits until every block of every file under {@code dir} of nameservice {@code ns} has as many
   * replicas reported to the NameNode as its file's replication factor. A closed file's last replicas
   * reach the NameNode in incremental block reports, a moment after the writer is done.
   */
  public void awaitReplication(int ns, Path dir, Duration timeout) throws TimeoutException, InterruptedException {
    Await.until("every block under " + dir + " has all its replicas", timeout, () -> {
      RemoteIterator<LocatedFileStatus> files = fs(ns).listFiles(dir, true);
      while (files.hasNext()) {
        LocatedFileStatus f = files.next();
        for (BlockLocation b : f.getBlockLocations()) {
          if (b.getHosts().length < f.getReplication()) {
            return false;
          }
        }
      }
      return true;
    });
  }

  /**
   * Starts decommissioning {@code nodes} at every running NameNode, as {@code hdfs dfsadmin -refreshNodes}
   * with them in the exclude file would (through the NameNode's admin manager, without a hosts file).
   */
  public void startDecommission(List<DataNodeHandle> nodes) throws IOException {
    atEveryNameNode(nodes, DatanodeAdminManager::startDecommission);
  }

  /** Puts {@code nodes} into maintenance (without expiry) at every running NameNode. */
  public void startMaintenance(List<DataNodeHandle> nodes) throws IOException {
    atEveryNameNode(nodes, (admin, node) -> admin.startMaintenance(node, Long.MAX_VALUE));
  }

  private void atEveryNameNode(List<DataNodeHandle> nodes, BiConsumer<DatanodeAdminManager, DatanodeDescriptor> action)
      throws IOException {
    for (int i = 0; i < cluster.getNumNameNodes(); i++) {
      if (!cluster.isNameNodeUp(i)) {
        continue;
      }
      FSNamesystem fsn = cluster.getNamesystem(i);
      DatanodeManager dm = fsn.getBlockManager().getDatanodeManager();
      fsn.writeLock();
      try {
        for (DataNodeHandle h : nodes) {
          DataNode dn = running(h);
          if (dn == null) {
            throw new IllegalStateException("cannot change the admin state of " + h + ": it is stopped");
          }
          action.accept(dm.getDatanodeAdminManager(), dm.getDatanode(dn.getDatanodeId()));
        }
      } finally {
        fsn.writeUnlock();
      }
    }
  }

  /** Whether the active NameNode of nameservice {@code ns} has {@code node} in maintenance. */
  public boolean isInMaintenance(int ns, DataNodeHandle node) {
    return adminState(ns, node, DatanodeDescriptor::isInMaintenance);
  }

  /** Whether the active NameNode of nameservice {@code ns} has finished decommissioning {@code node}. */
  public boolean isDecommissioned(int ns, DataNodeHandle node) {
    return adminState(ns, node, DatanodeDescriptor::isDecommissioned);
  }

  private boolean adminState(int ns, DataNodeHandle node, Predicate<DatanodeDescriptor> state) {
    DataNode dn = running(node);
    try {
      DatanodeDescriptor d = activeNamesystem(ns).getBlockManager().getDatanodeManager().getDatanode(dn.getDatanodeId());
      return d != null && state.test(d);
    } catch (IOException unregistered) {
      return false;
    }
  }

  /**
   * Waits until the active NameNode of nameservice {@code ns} has no missing, under-replicated or
   * pending-reconstruction block.
   */
  public void awaitFullyReplicated(int ns, Duration timeout) throws TimeoutException, InterruptedException {
    try {
      Await.until("nameservice " + ns + " has every block fully replicated", timeout, () -> {
        FSNamesystem fsn = activeNamesystem(ns);
        return fsn.getMissingBlocksCount() == 0 && fsn.getLowRedundancyBlocks() == 0
            && fsn.getPendingReconstructionBlocks() == 0;
      });
    } catch (TimeoutException e) {
      String counts;
      try {
        FSNamesystem fsn = activeNamesystem(ns);
        counts = "missing " + fsn.getMissingBlocksCount() + ", low redundancy " + fsn.getLowRedundancyBlocks()
            + ", pending reconstruction " + fsn.getPendingReconstructionBlocks();
      } catch (IllegalStateException noActive) {
        counts = noActive.getMessage();
      }
      TimeoutException t = new TimeoutException(e.getMessage() + " (" + counts + ")");
      t.initCause(e.getCause());
      throw t;
    }
  }

  /** The namesystem of the active NameNode of nameservice {@code ns}. */
  public FSNamesystem activeNamesystem(int ns) {
    for (int nn = 0; nn < nameNodesPerNameservice; nn++) {
      int i = nameNodeIndex(ns, nn);
      if (cluster.isNameNodeUp(i) && cluster.getNameNode(i).isActiveState()) {
        return cluster.getNamesystem(i);
      }
    }
    throw new IllegalStateException("nameservice " + ns + " has no active NameNode");
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

  /**
   * Closes the JVM-wide cached {@code FileSystem} of each nameservice URI. Tools run in-process (the
   * stock balancer's {@code NameNodeConnector} takes {@code FileSystem.get} and never closes it) leave
   * one behind; the next cluster in this JVM reuses the logical name {@code hdfs://ns1}, and the cache
   * would hand it a client still dialling this cluster's NameNodes, retrying refused connections for
   * minutes.
   */
  private void closeCachedFileSystems() {
    for (int ns = 0; ns < nameservices.size(); ns++) {
      try {
        FileSystem.get(uri(ns), conf).close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("could not close the cached client of {}", uri(ns), e);
      }
    }
  }

  private void shutdown(boolean deleteStorage) {
    synchronized (fileSystems) {
      for (DistributedFileSystem fs : fileSystems.values()) {
        IOUtils.closeStream(fs);
      }
      fileSystems.clear();
    }
    closeCachedFileSystems();
    cluster.shutdown(deleteStorage);
    IOUtils.closeStream(zooKeeper);
  }
}
