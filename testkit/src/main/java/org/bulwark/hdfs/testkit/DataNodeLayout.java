package org.bulwark.hdfs.testkit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * The DataNodes a {@link BulwarkMiniCluster} starts with, one per topology slot: host name, rack,
 * address, capacity and storage type. Exists to turn a {@link TopologySpec} into MiniDFSCluster's
 * parallel per-DataNode arrays in one place, and to remember what the running cluster needs later
 * (the handles, and capacities to re-apply on restart).
 */
final class DataNodeLayout {
  private final int count;
  private final String[] racks;
  private final String[] hosts;
  private final long[][] capacities;
  private final Configuration[] overlays;
  private final StorageType[][] types;
  private final List<DataNodeHandle> handles = new ArrayList<>();
  private final Map<String, Long> capacityByHost = new HashMap<>();

  /**
   * @param clusterSeq the cluster's number in this JVM, which its host names carry
   * @param defaultCapacity capacity of a DataNode whose rack gives none (0: the disk's)
   * @param capacityOverrides capacity by DataNode index, over its rack's
   * @param storageTypes storage type by DataNode index; others have DISK
   */
  DataNodeLayout(TopologySpec topology, int clusterSeq, long defaultCapacity, Map<Integer, Long> capacityOverrides,
      Map<Integer, StorageType> storageTypes) {
    List<TopologySpec.Rack> rackOf = topology.rackOfEachDataNode();
    count = rackOf.size();
    racks = new String[count];
    hosts = new String[count];
    capacities = new long[count][];
    overlays = new Configuration[count];
    types = storageTypes.isEmpty() ? null : new StorageType[count][];
    int withCapacity = 0;
    for (int i = 0; i < count; i++) {
      TopologySpec.Rack rack = rackOf.get(i);
      racks[i] = rack.path();
      // Unique per cluster: StaticMapping, which maps host names to racks, is JVM-wide.
      hosts[i] = String.format("dn%02d.c%d.bulwark.test", i, clusterSeq);
      String ip = DataNodeAddresses.ipAddress(i);
      overlays[i] = DataNodeAddresses.overlay(ip);
      long capacity = capacityOverrides.getOrDefault(i, rack.capacityBytes() > 0 ? rack.capacityBytes() : defaultCapacity);
      capacities[i] = new long[] {capacity};
      if (capacity > 0) {
        withCapacity++;
        capacityByHost.put(hosts[i], capacity);
      }
      if (types != null) {
        types[i] = new StorageType[] {storageTypes.getOrDefault(i, StorageType.DISK)};
      }
      handles.add(new DataNodeHandle(i, hosts[i], ip, rack.path(), rack.datacenter()));
    }
    if (withCapacity != 0 && withCapacity != count) {
      throw new IllegalArgumentException("topology " + topology + " gives a capacity to " + withCapacity + " of " + count
          + " DataNodes: give every rack one, or set a default with capacity(bytes)");
    }
  }

  /** Sets the DataNodes of {@code builder}: each on its own host, rack and address, with one storage. */
  void applyTo(MiniDFSCluster.Builder builder) {
    builder.numDataNodes(count)
        .racks(racks)
        .hosts(hosts)
        .storagesPerDatanode(1)
        .dataNodeConfOverlays(overlays)
        .checkDataNodeAddrConfig(true);
    if (!capacityByHost.isEmpty()) {
      builder.storageCapacities(capacities);
    }
    if (types != null) {
      builder.storageTypes(types);
    }
  }

  List<DataNodeHandle> handles() {
    return handles;
  }

  /** Capacity by host name, only for DataNodes given one (all or none are). */
  Map<String, Long> capacityByHost() {
    return capacityByHost;
  }
}
