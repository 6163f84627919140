package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsDatasetSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsVolumeImpl;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNodeAdapter;

/**
 * DataNode failures of a {@link BulwarkMiniCluster}: graceful stops, crashes, whole racks or datacenters
 * lost, and bringing the same DataNodes back. Exists so that every failure test breaks and repairs
 * DataNodes the same way, keeping each one's identity, rack and capacity across a restart.
 */
final class DataNodeFaults {
  private final MiniDFSCluster cluster;
  private final DataNodes dataNodes;
  private final NameNodes nameNodes;
  private final Map<String, Long> capacityByHost;

  DataNodeFaults(MiniDFSCluster cluster, DataNodes dataNodes, NameNodes nameNodes, Map<String, Long> capacityByHost) {
    this.cluster = cluster;
    this.dataNodes = dataNodes;
    this.nameNodes = nameNodes;
    this.capacityByHost = Map.copyOf(capacityByHost);
  }

  /** Stops every running DataNode of {@code rack} (as a power loss would; the NameNodes notice later). */
  StoppedDataNodes stopRack(String rack) {
    return stop(dataNodes.inRack(rack));
  }

  StoppedDataNodes stopDatacenter(String datacenter) {
    return stop(dataNodes.inDatacenter(datacenter));
  }

  /**
   * Kills {@code handles} as a crashed DataNode process dies: every connection it holds is reset at once
   * (what the kernel does to a killed process's sockets, which clients and pipelines react to within
   * milliseconds), then it stops. {@link #stop} is a graceful stop, during which in-flight transfers
   * drain for seconds, as {@code hdfs --daemon stop datanode} would.
   */
  synchronized StoppedDataNodes kill(List<DataNodeHandle> handles) {
    for (DataNodeHandle h : handles) {
      DataNode dn = dataNodes.running(h);
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
      Field shouldRun = DataNode.class.getDeclaredField("shouldRun");
      shouldRun.setAccessible(true);
      shouldRun.setBoolean(dn, false);
      Object server = dn.getXferServer();
      for (String step : new String[] {"kill", "closeAllPeers"}) {
        Method m = server.getClass().getDeclaredMethod(step);
        m.setAccessible(true);
        m.invoke(server);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot reset the connections of " + dn + " (Hadoop's DataXceiverServer changed?)", e);
    }
  }

  /** Stops those of {@code handles} that run, keeping what {@link #restart} needs to bring them back. */
  synchronized StoppedDataNodes stop(List<DataNodeHandle> handles) {
    List<StoppedDataNodes.Stopped> stopped = new ArrayList<>();
    for (DataNodeHandle h : handles) {
      DataNode dn = dataNodes.running(h);
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
  void declareDead(StoppedDataNodes stopped) throws IOException {
    for (FSNamesystem fsn : nameNodes.running()) {
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
  synchronized void restart(StoppedDataNodes stopped) throws IOException {
    for (StoppedDataNodes.Stopped s : stopped.nodes()) {
      cluster.restartDataNode(s.properties(), true);
      DataNode dn = dataNodes.running(s.handle());
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
}
