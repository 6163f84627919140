package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.bulwark.hdfs.placement.rules.RackFill;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our policies against Hadoop's default policy on generated clusters (seeded: racks and datacenters of every
 * size, full, archive-only and decommissioning DataNodes, excluded nodes, replicas already placed, writers on
 * and off the cluster, replication 1 to 5). Wherever the default policy finds targets, ours must find as many,
 * each one the default policy's own checks accept, and spread them over at least as many racks (and, for the
 * hierarchical policy, datacenters): a write never fails, nor is it placed worse, for our rules. In the
 * compatibility suite: the default policy it is held against is each Hadoop line's own.
 */
@Tag("compat")
class StockPolicyDifferentialIT {
  private static final int CASES = Integer.getInteger("placement.differential.cases", 400);
  /** Both policies draw at random inside: each case is tried this often, every try compared. */
  private static final int TRIES = 3;
  private static final long BLOCK = 128L << 20;
  private static final long TB = 1L << 40;
  private static final BlockStoragePolicySuite SUITE = BlockStoragePolicySuite.createDefaultSuite();

  /** One generated case: the cluster and one call's arguments. */
  private static final class Case {
    final long seed;
    final SimulatedTopology topology;
    final int replicas;
    final Node writer;
    final Set<Node> excluded;
    final List<DatanodeStorageInfo> chosen;
    final BlockStoragePolicy storagePolicy;
    final StringBuilder description = new StringBuilder();

    Case(long seed, Configuration conf, boolean datacenters) {
      this.seed = seed;
      Random r = new Random(seed);
      // One case in four is tight: few, small racks, many DataNodes full, archive-only or leaving.
      boolean tight = r.nextInt(4) == 0;
      topology = cluster(r, conf, datacenters, tight, description);
      List<DatanodeDescriptor> all = topology.nodes;
      writer = r.nextBoolean() ? all.get(r.nextInt(all.size())) : null;
      excluded = new HashSet<>();
      for (DatanodeDescriptor d : all) {
        if (r.nextInt(tight ? 5 : 10) == 0) {
          excluded.add(d);
        }
      }
      chosen = new ArrayList<>();
      if (r.nextInt(3) == 0) {
        int placed = 1 + r.nextInt(2);
        for (int i = 0; i < placed; i++) {
          DatanodeDescriptor d = all.get(r.nextInt(all.size()));
          DatanodeStorageInfo s = d.getStorageInfos()[0];
          if (!excluded.contains(d) && !chosen.contains(s)) {
            chosen.add(s);
          }
        }
      }
      replicas = 1 + r.nextInt(5 - chosen.size());
      storagePolicy = r.nextInt(4) == 0 ? SUITE.getPolicy("WARM") : SUITE.getDefaultPolicy();
      description.append("| writer ").append(writer == null ? "off-cluster" : writer.getNetworkLocation())
          .append(", ").append(replicas).append(" more, ").append(storagePolicy.getName()).append(", excluded ")
          .append(locations(excluded)).append(", placed ").append(locations(nodesOf(chosen)));
    }

    /** How many targets have a storage type the storage policy asks for (no more of a type than it asks). */
    int honoured(DatanodeStorageInfo[] targets) {
      List<StorageType> wanted = new ArrayList<>(storagePolicy.chooseStorageTypes((short) (chosen.size() + replicas),
          List.of(DatanodeStorageInfo.toStorageTypes(chosen.toArray(new DatanodeStorageInfo[0]))),
          EnumSet.noneOf(StorageType.class), chosen.isEmpty()));
      int honoured = 0;
      for (DatanodeStorageInfo t : targets) {
        honoured += wanted.remove(t.getStorageType()) ? 1 : 0;
      }
      return honoured;
    }

    DatanodeStorageInfo[] choose(BlockPlacementPolicyDefault policy) {
      return policy.chooseTarget("/f", replicas, writer, new ArrayList<>(chosen), false, new HashSet<>(excluded),
          BLOCK, storagePolicy, null);
    }

    @Override
    public String toString() {
      return "case " + seed + ": " + description;
    }
  }

  /**
   * A generated cluster: 1-8 racks (1-4 when {@code tight}) of 1-5 DataNodes (1-2), in 1-3 datacenters when
   * {@code datacenters}; one DataNode in 20 (in 6 when tight) each full, archive-only or decommissioning.
   */
  private static SimulatedTopology cluster(Random r, Configuration conf, boolean datacenters, boolean tight,
      StringBuilder description) {
    SimulatedTopology topology = new SimulatedTopology(conf);
    int dcs = datacenters ? 1 + r.nextInt(3) : 1;
    int racks = 1 + r.nextInt(tight ? 4 : 8);
    for (int k = 0; k < racks; k++) {
      String rack = (datacenters ? "/dc" + (k % dcs) : "") + "/r" + k;
      int nodes = 1 + r.nextInt(tight ? 2 : 5);
      for (int n = 0; n < nodes; n++) {
        int kind = r.nextInt(tight ? 6 : 20);
        long used = kind == 0 ? TB - BLOCK / 2 : (long) (r.nextDouble() * 0.8 * TB);
        topology.addRack(rack, 1, TB, used, kind == 1 ? StorageType.ARCHIVE : StorageType.DISK);
        DatanodeDescriptor d = topology.nodes.get(topology.nodes.size() - 1);
        if (kind == 2) {
          d.startDecommission();
        }
        description.append(rack).append(kind == 0 ? ":full" : kind == 1 ? ":archive" : kind == 2 ? ":decom" : "")
            .append(' ');
      }
    }
    return topology;
  }

  /** Read from the XML resources once: parsing them again for each of the 1,600 cases was most of the test's CPU. */
  private static final Configuration BASE = loaded();

  private static Configuration loaded() {
    Configuration conf = new HdfsConfiguration();
    conf.setBoolean("dfs.namenode.redundancy.considerLoad", false);
    conf.size();
    return conf;
  }

  /** A case's own configuration: a copy, as a policy may set keys on it. */
  private static Configuration conf() {
    return new HdfsConfiguration(BASE);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void wherePolicyDefaultPlacesOursPlacesAsManyOnAsManyRacksEachANodeItAccepts(boolean hierarchical) {
    int compared = 0;
    int fewerForStock = 0;
    int stockGaveUpTypes = 0;
    List<String> worse = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      Configuration conf = conf();
      Case c = new Case(1000L * (hierarchical ? 2 : 1) + i, conf, hierarchical);
      BlockPlacementPolicyDefault stock = c.topology.policy(BlockPlacementPolicyDefault.class, conf);
      BlockPlacementPolicyDefault ours = hierarchical
          ? c.topology.policy(HierarchicalPlacementPolicy.class, conf)
          : c.topology.policy(OneReplicaPerRackPlacementPolicy.class, conf);
      for (int t = 0; t < TRIES; t++) {
        DatanodeStorageInfo[] theirs = c.choose(stock);
        DatanodeStorageInfo[] mine = c.choose(ours);
        String at = c + "\n  stock " + describe(List.of(theirs)) + "\n  ours  " + describe(List.of(mine));
        assertAcceptable(c, mine, at);
        // Where the default policy buys a rack by giving up the storage policy's type (a WARM block's ARCHIVE
        // replica put on DISK elsewhere) and ours keeps the type, ours spans what that type allows: not compared.
        boolean typeKeptWhereStockGaveItUp = c.honoured(mine) > c.honoured(theirs);
        stockGaveUpTypes += typeKeptWhereStockGaveItUp ? 1 : 0;
        if (mine.length < theirs.length) {
          worse.add("fewer targets than the default policy: " + at);
        } else if (!typeKeptWhereStockGaveItUp && racks(concat(c.chosen, mine)) < racks(concat(c.chosen, theirs))) {
          worse.add("fewer racks than the default policy: " + at);
        } else if (hierarchical && !typeKeptWhereStockGaveItUp
            && datacenters(concat(c.chosen, mine)) < Math.min(2, datacenters(concat(c.chosen, theirs)))) {
          // Two datacenters survive the loss of either; more is not the rule's aim (RF 3 spans two by design).
          worse.add("one datacenter where the default policy's placement spans two: " + at);
        }
        compared++;
        fewerForStock += theirs.length < c.replicas ? 1 : 0;
      }
    }
    assertTrue(worse.isEmpty(), worse.size() + " of " + compared + " placements worse than the default policy's:\n"
        + String.join("\n", worse.subList(0, Math.min(10, worse.size()))));
    System.out.printf("%s against the default policy: %d placements compared, %d where it fell short, %d where it"
        + " gave up a storage type that ours kept%n", hierarchical ? "HierarchicalPlacementPolicy"
        : "OneReplicaPerRackPlacementPolicy", compared, fewerForStock, stockGaveUpTypes);
    // The generator must reach the corners, not only clusters where every policy places everything.
    assertTrue(fewerForStock > compared / 50, "cases where the default policy fell short: " + fewerForStock);
  }

  /**
   * Excess replicas (a block over its replication factor after a DataNode came back, or a lowered factor) on the
   * same generated clusters, with and without a delete hint and a newly added replica: ours deletes as many as the
   * default policy and leaves the block on at least as many racks, and in two datacenters wherever the default
   * policy's choice leaves two.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void excessReplicasLeaveTheBlockOnAsManyRacksAsTheDefaultPolicysChoice(boolean hierarchical) {
    List<String> worse = new ArrayList<>();
    int compared = 0;
    int rackKept = 0;
    for (int i = 0; i < CASES; i++) {
      Configuration conf = conf();
      long seed = 5000L * (hierarchical ? 2 : 1) + i;
      Random r = new Random(seed);
      StringBuilder description = new StringBuilder();
      SimulatedTopology t = cluster(r, conf, hierarchical, r.nextInt(4) == 0, description);
      List<DatanodeStorageInfo> live = new ArrayList<>();
      for (DatanodeDescriptor d : t.nodes) {
        if (d.isInService()) {
          live.add(d.getStorageInfos()[0]);
        }
      }
      if (live.size() < 2) {
        continue;
      }
      int expected = 1 + r.nextInt(Math.min(4, live.size() - 1));
      int held = expected + 1 + r.nextInt(Math.min(3, live.size() - expected));
      Collections.shuffle(live, r);
      List<DatanodeStorageInfo> replicas = new ArrayList<>(live.subList(0, held));
      BlockStoragePolicy storagePolicy = r.nextInt(4) == 0 ? SUITE.getPolicy("WARM") : SUITE.getDefaultPolicy();
      List<StorageType> excessTypes = storagePolicy.chooseExcess((short) expected,
          List.of(DatanodeStorageInfo.toStorageTypes(replicas.toArray(new DatanodeStorageInfo[0]))));
      DatanodeDescriptor hint = r.nextInt(3) == 0 ? replicas.get(r.nextInt(held)).getDatanodeDescriptor() : null;
      DatanodeDescriptor added = r.nextInt(3) == 0 ? replicas.get(r.nextInt(held)).getDatanodeDescriptor() : null;
      BlockPlacementPolicyDefault stock = t.policy(BlockPlacementPolicyDefault.class, conf);
      BlockPlacementPolicyDefault ours = hierarchical
          ? t.policy(HierarchicalPlacementPolicy.class, conf)
          : t.policy(OneReplicaPerRackPlacementPolicy.class, conf);
      List<DatanodeStorageInfo> theirs = stock.chooseReplicasToDelete(new ArrayList<>(replicas),
          new ArrayList<>(replicas), expected, new ArrayList<>(excessTypes), added, hint);
      List<DatanodeStorageInfo> mine = ours.chooseReplicasToDelete(new ArrayList<>(replicas),
          new ArrayList<>(replicas), expected, new ArrayList<>(excessTypes), added, hint);
      List<DatanodeStorageInfo> keptByStock = new ArrayList<>(replicas);
      keptByStock.removeAll(theirs);
      List<DatanodeStorageInfo> keptByOurs = new ArrayList<>(replicas);
      keptByOurs.removeAll(mine);
      String at = "case " + seed + ": " + description + "| RF " + expected + ", " + storagePolicy.getName()
          + ", replicas " + describe(replicas) + ", hint " + hint + ", added " + added
          + "\n  stock deletes " + describe(theirs) + "\n  ours deletes  " + describe(mine);
      // Down to the replication factor at most; never fewer deleted than by the default policy (which stops short
      // now and then: no replica of an excess type in the group it looks at), but where its deletion leaves the block
      // in one datacenter of two: ours then keeps the replica, as both keep one on a block's second rack.
      boolean stockLeavesOneDatacenter = hierarchical
          && datacenters(keptByStock) < Math.min(2, datacenters(replicas));
      if (mine.size() < theirs.size() && !stockLeavesOneDatacenter || mine.size() > held - expected) {
        worse.add("deletes " + mine.size() + " where the default policy deletes " + theirs.size() + ": " + at);
      } else if (racks(keptByOurs) < Math.min(racks(keptByStock), keptByOurs.size())) {
        worse.add("fewer racks kept than the default policy: " + at);
      } else if (hierarchical
          && datacenters(keptByOurs) < Math.min(Math.min(2, keptByOurs.size()), datacenters(keptByStock))) {
        worse.add("one datacenter kept where the default policy's choice keeps two: " + at);
      }
      rackKept += racks(keptByOurs) > racks(keptByStock) ? 1 : 0;
      compared++;
    }
    assertTrue(worse.isEmpty(), worse.size() + " of " + compared + " deletions worse than the default policy's:\n"
        + String.join("\n", worse.subList(0, Math.min(10, worse.size()))));
    System.out.printf("%s deleting excess replicas: %d blocks compared, %d left on more racks than by the default"
        + " policy%n", hierarchical ? "HierarchicalPlacementPolicy" : "OneReplicaPerRackPlacementPolicy", compared,
        rackKept);
    assertTrue(compared > CASES / 2, "blocks compared: " + compared);
  }

  /** Every target is one the default policy's own checks take: distinct, new, not excluded, in service, with room. */
  private static void assertAcceptable(Case c, DatanodeStorageInfo[] targets, String at) {
    Set<DatanodeDescriptor> seen = new HashSet<>(nodesOf(c.chosen));
    for (DatanodeStorageInfo s : targets) {
      DatanodeDescriptor d = s.getDatanodeDescriptor();
      assertTrue(seen.add(d), "a DataNode twice or one already holding the block: " + at);
      assertTrue(!c.excluded.contains(d), "an excluded DataNode: " + at);
      assertTrue(d.isInService(), "a DataNode not in service: " + at);
      assertTrue(d.getRemaining() >= BLOCK, "a DataNode without room for the block: " + at);
    }
  }

  private static int racks(Collection<DatanodeStorageInfo> replicas) {
    return distinct(replicas, rack -> rack);
  }

  private static int datacenters(Collection<DatanodeStorageInfo> replicas) {
    return distinct(replicas, RackFill::datacenterOf);
  }

  /** How many distinct places (racks, or what {@code place} makes of a rack) hold {@code replicas}. */
  private static int distinct(Collection<DatanodeStorageInfo> replicas, Function<String, String> place) {
    Set<String> places = new HashSet<>();
    for (DatanodeStorageInfo s : replicas) {
      places.add(place.apply(s.getDatanodeDescriptor().getNetworkLocation()));
    }
    return places.size();
  }

  private static List<DatanodeStorageInfo> concat(List<DatanodeStorageInfo> chosen, DatanodeStorageInfo[] targets) {
    List<DatanodeStorageInfo> all = new ArrayList<>(chosen);
    all.addAll(List.of(targets));
    return all;
  }

  private static List<DatanodeDescriptor> nodesOf(List<DatanodeStorageInfo> storages) {
    List<DatanodeDescriptor> out = new ArrayList<>();
    for (DatanodeStorageInfo s : storages) {
      out.add(s.getDatanodeDescriptor());
    }
    return out;
  }

  private static List<String> locations(Iterable<? extends Node> nodes) {
    List<String> out = new ArrayList<>();
    for (Node n : nodes) {
      out.add(n.getNetworkLocation() + "/" + n.getName());
    }
    return out;
  }

  private static String describe(Collection<DatanodeStorageInfo> targets) {
    List<String> out = new ArrayList<>();
    for (DatanodeStorageInfo s : targets) {
      out.add(s.getDatanodeDescriptor().getNetworkLocation() + "/" + s.getDatanodeDescriptor().getName() + ":"
          + s.getStorageType());
    }
    return out.toString();
  }
}
