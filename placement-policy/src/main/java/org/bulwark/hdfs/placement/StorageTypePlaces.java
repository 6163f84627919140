package org.bulwark.hdfs.placement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.bulwark.hdfs.placement.rules.ReplicaReach;

/**
 * Which racks and datacenters offer each storage type, as of one topology snapshot, and so how many of
 * them a block can span. Why: {@code verifyBlockPlacement} is not told the block's storage policy, but
 * its replicas' locations say where each replica could be instead. fsck passes each replica's storage
 * (its type exactly); the NameNode's own checks pass DataNode descriptors, whose storage types (failed
 * volumes left out) are all the types the replica might have. The replicas are judged by the types their
 * DataNodes all share: COLD replicas on archive nodes, or on archive nodes and one with DISK volumes too,
 * can be only where ARCHIVE is offered; a type offered on every rack confines nothing (on a cluster of one
 * storage type nothing is confined, and that case costs nothing). Replicas sharing no type (WARM: DISK and
 * ARCHIVE) are each judged by their own DataNode's types. COLD replicas all on DataNodes with DISK volumes
 * too are still asked by the NameNode to span every rack (never fewer places than the block could need).
 */
final class StorageTypePlaces {
  private final Level racks;
  private final Level datacenters;
  /** Every type offered is offered on every rack: no replica is confined, the common case costs nothing. */
  private final boolean uniform;
  /** Each in-service DataNode's usable types, read once per snapshot rather than once per block checked. */
  private final Map<DatanodeDescriptor, Set<StorageType>> typesByNode;

  private StorageTypePlaces(Map<StorageType, Set<String>> racksByType, Map<DatanodeDescriptor, Set<StorageType>> typesByNode,
      int racks, int datacenters) {
    this.typesByNode = typesByNode;
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
    private final Map<DatanodeDescriptor, Set<StorageType>> typesByNode = new IdentityHashMap<>();

    /**
     * A DataNode that has reported no usable storage yet (registered, its first heartbeat to come) could offer
     * any type: counted so, never narrowing what a block is asked to span, and not cached.
     */
    void add(DatanodeDescriptor dn) {
      Set<StorageType> types = usableTypes(dn);
      if (types.isEmpty()) {
        types = EnumSet.allOf(StorageType.class);
      } else {
        typesByNode.put(dn, types);
      }
      for (StorageType t : types) {
        racksByType.computeIfAbsent(t, k -> new HashSet<>()).add(dn.getNetworkLocation());
      }
    }

    StorageTypePlaces build(RackFill fill) {
      return new StorageTypePlaces(racksByType, typesByNode, fill.racks().size(), fill.datacenters().size());
    }
  }

  static Builder builder() {
    return new Builder();
  }

  /**
   * Which of the storage types a write still has to place goes first: the one offered on fewest racks; null when
   * fewer than two of them are offered, or the cluster offers every type on every rack (nothing to order). Placed
   * first, a scarce type takes the racks only it can use before a type offered more widely does: a WARM block's
   * DISK replica on the one rack with ARCHIVE nodes would leave its ARCHIVE replica that same rack or none.
   */
  StorageType placedFirst(Set<StorageType> wanted) {
    if (uniform || wanted.size() < 2) {
      return null;
    }
    StorageType first = null;
    int fewest = Integer.MAX_VALUE;
    int offered = 0;
    for (StorageType t : wanted) {
      int offering = racksOffering(t).size();
      if (offering == 0) {
        continue; // offered nowhere: left to Hadoop's fallback types
      }
      offered++;
      if (offering < fewest) {
        fewest = offering;
        first = t;
      }
    }
    return offered < 2 ? null : first;
  }

  /**
   * Of {@code racks} (each offering {@code type}), those offering none of the write's other {@code wanted} types,
   * or all of them when each offers another: a replica there takes no rack another type could have used.
   */
  List<String> leastContested(List<String> racks, StorageType type, Set<StorageType> wanted) {
    List<String> out = new ArrayList<>();
    for (String rack : racks) {
      boolean contested = false;
      for (StorageType other : wanted) {
        contested |= other != type && racksOffering(other).contains(rack);
      }
      if (!contested) {
        out.add(rack);
      }
    }
    return out.isEmpty() ? racks : out;
  }

  /** The racks with an in-service DataNode offering {@code type}. */
  Set<String> racksOffering(StorageType type) {
    Set<String> on = racks.byType.get(type);
    return on == null ? Collections.<String>emptySet() : on;
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
   * The storage types that confine the replicas on {@code locs}: the types every replica's DataNode offers,
   * when those are not offered on every rack; null when the replicas could be anywhere, or share no type.
   */
  Set<StorageType> confiningTypes(DatanodeInfo[] locs) {
    Set<StorageType> shared = sharedTypes(locs);
    return shared == null || shared.isEmpty() || racks.optionsFor(shared) == null ? null : shared;
  }

  /**
   * The types every replica on {@code locs} may have (empty when they share none); null when uniform or unknown.
   * Judging every replica by the shared types keeps a repair's target from loosening the rule: a COLD block's
   * new copy on a DataNode with DISK volumes too is an ARCHIVE copy like the others, not one that could be anywhere.
   */
  private Set<StorageType> sharedTypes(DatanodeInfo[] locs) {
    if (uniform || locs == null || locs.length == 0) {
      return null;
    }
    EnumSet<StorageType> shared = EnumSet.allOf(StorageType.class);
    for (DatanodeInfo dn : locs) {
      Set<StorageType> types = typesOf(dn);
      if (types == null) {
        return null;
      }
      shared.retainAll(types);
    }
    return shared;
  }

  private int reach(DatanodeInfo[] locs, int replicas, Level level) {
    Set<StorageType> shared = sharedTypes(locs);
    if (shared == null) {
      return level.places;
    }
    if (!shared.isEmpty()) {
      Set<String> options = level.optionsFor(shared);
      return options == null ? level.places : options.size();
    }
    // Replicas of different types (WARM: DISK and ARCHIVE): each where its own DataNode's types are offered.
    List<Set<String>> options = new ArrayList<>(locs.length);
    for (DatanodeInfo dn : locs) {
      options.add(level.optionsFor(typesOf(dn)));
    }
    return ReplicaReach.maxDistinctPlaces(options, replicas - locs.length, level.places);
  }

  /**
   * The storage types the replica on {@code dn} may have; null when unknown (never empty: a DataNode the snapshot
   * saw before its storages were reported is read again, and one with none is unknown).
   */
  Set<StorageType> typesOf(DatanodeInfo dn) {
    if (dn instanceof DatanodeInfoWithStorage) {
      StorageType type = ((DatanodeInfoWithStorage) dn).getStorageType();
      return type == null ? null : EnumSet.of(type);
    }
    if (dn instanceof DatanodeDescriptor) {
      Set<StorageType> known = typesByNode.get(dn);
      if (known == null) {
        known = usableTypes((DatanodeDescriptor) dn);
      }
      return known.isEmpty() ? null : known;
    }
    return null;
  }

  /** The types of a DataNode's storages that have not failed: a failed volume offers nothing. */
  static Set<StorageType> usableTypes(DatanodeDescriptor dn) {
    EnumSet<StorageType> types = EnumSet.noneOf(StorageType.class);
    for (StorageReport r : dn.getStorageReports()) {
      if (r.getStorage().getState() != DatanodeStorage.State.FAILED) {
        types.add(r.getStorage().getStorageType());
      }
    }
    return types;
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
