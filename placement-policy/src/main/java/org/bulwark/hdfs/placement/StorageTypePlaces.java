package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.placement.rules.ReplicaReach;

/**
 * Which racks and datacenters offer each storage type, as of one topology snapshot, and so how many of
 * them a block can span. Why: {@code verifyBlockPlacement} is not told the block's storage policy, but
 * its replicas' locations say where each replica could be instead. fsck passes each replica's storage
 * (its type exactly); the NameNode's own checks pass DataNode descriptors, whose storage types are all
 * the types the replica might have. A replica of a type offered on every rack could be anywhere (on a
 * cluster of one storage type, every replica: that case costs nothing); an ARCHIVE replica only where
 * ARCHIVE is offered. A DataNode with several types counts as anywhere any of them is offered, so a
 * COLD block on DataNodes with DISK volumes too is still asked by the NameNode to span every rack
 * (never fewer places than the block could need).
 */
final class StorageTypePlaces {
  private final Level racks;
  private final Level datacenters;
  /** Every type offered is offered on every rack: no replica is confined, the common case costs nothing. */
  private final boolean uniform;

  private StorageTypePlaces(Map<StorageType, Set<String>> racksByType, int racks, int datacenters) {
    Map<StorageType, Set<String>> datacentersByType = new EnumMap<>(StorageType.class);
    boolean everywhere = true;
    for (Map.Entry<StorageType, Set<String>> e : racksByType.entrySet()) {
      Set<String> dcs = new HashSet<>();
      for (String rack : e.getValue()) {
        dcs.add(RackFill.datacenterOf(rack));
      }
      datacentersByType.put(e.getKey(), dcs);
      everywhere &= e.getValue().size() == racks;
    }
    this.racks = new Level(racksByType, racks);
    this.datacenters = new Level(datacentersByType, datacenters);
    this.uniform = everywhere;
  }

  /** Collects the storage types of each in-service DataNode's rack; add each, then {@link #build}. */
  static final class Builder {
    private final Map<StorageType, Set<String>> racksByType = new EnumMap<>(StorageType.class);

    void add(String rack, Set<StorageType> types) {
      for (StorageType t : types) {
        racksByType.computeIfAbsent(t, k -> new HashSet<>()).add(rack);
      }
    }

    StorageTypePlaces build(RackFill fill) {
      return new StorageTypePlaces(racksByType, fill.racks().size(), fill.datacenters().size());
    }
  }

  static Builder builder() {
    return new Builder();
  }

  /** The most racks in service the replicas on {@code locs} (of a block of {@code replicas}) can span. */
  int reachableRacks(DatanodeInfo[] locs, int replicas) {
    return reach(locs, replicas, racks);
  }

  /** The most datacenters in service the replicas on {@code locs} (of a block of {@code replicas}) can span. */
  int reachableDatacenters(DatanodeInfo[] locs, int replicas) {
    return reach(locs, replicas, datacenters);
  }

  /**
   * The storage types that confine the replicas on {@code locs}: every type their DataNodes may hold them
   * on, when none of those types is offered on every rack; null when the replicas could be anywhere.
   */
  Set<StorageType> confiningTypes(DatanodeInfo[] locs) {
    if (uniform || locs == null || locs.length == 0) {
      return null;
    }
    EnumSet<StorageType> all = EnumSet.noneOf(StorageType.class);
    for (DatanodeInfo dn : locs) {
      Set<StorageType> types = typesOf(dn);
      if (types == null || racks.optionsFor(types) == null) {
        return null;
      }
      all.addAll(types);
    }
    return racks.optionsFor(all) == null ? null : all;
  }

  private int reach(DatanodeInfo[] locs, int replicas, Level level) {
    if (uniform || locs == null || locs.length == 0) {
      return level.places;
    }
    List<Set<String>> options = new ArrayList<>(locs.length);
    for (DatanodeInfo dn : locs) {
      Set<StorageType> types = typesOf(dn);
      options.add(types == null ? null : level.optionsFor(types));
    }
    return ReplicaReach.maxDistinctPlaces(options, replicas - locs.length, level.places);
  }

  /** The storage types the replica on {@code dn} may have; null when unknown. */
  private static Set<StorageType> typesOf(DatanodeInfo dn) {
    if (dn instanceof DatanodeInfoWithStorage) {
      return EnumSet.of(((DatanodeInfoWithStorage) dn).getStorageType());
    }
    if (dn instanceof DatanodeDescriptor) {
      return ((DatanodeDescriptor) dn).getStorageTypes();
    }
    return null;
  }

  /** Racks or datacenters: where each type is offered, and the places a set of types reaches (kept per set). */
  private static final class Level {
    private static final Set<String> ANYWHERE = Collections.unmodifiableSet(new HashSet<String>());

    final Map<StorageType, Set<String>> byType;
    final int places;
    private final Map<Set<StorageType>, Set<String>> reached = new ConcurrentHashMap<>();

    Level(Map<StorageType, Set<String>> byType, int places) {
      this.byType = byType;
      this.places = places;
    }

    /** Where a replica of one of {@code types} could be: where any of them is offered; null for anywhere. */
    Set<String> optionsFor(Set<StorageType> types) {
      Set<String> out = reached.computeIfAbsent(types, this::union);
      return out == ANYWHERE ? null : out;
    }

    private Set<String> union(Set<StorageType> types) {
      Set<String> out = new HashSet<>();
      for (StorageType t : types) {
        Set<String> offering = byType.get(t);
        if (offering != null) {
          out.addAll(offering);
        }
      }
      return out.size() >= places ? ANYWHERE : Collections.unmodifiableSet(out);
    }
  }
}
