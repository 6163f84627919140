package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyRackFaultTolerant;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BenchChart;
import org.bulwark.hdfs.testkit.BenchReport;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Benchmark {@code placement-switch} ({@code mvn -B -T 1 -Pbench -Dbench=placement-switch verify}): a cluster filled under
 * Hadoop's default policy is switched to another policy the documented way (the key set, the NameNode restarted), and
 * the NameNode's own redundancy work repairs what the new policy calls mis-replicated. Per policy and throttle setting:
 * the time from the restarted NameNode leaving safe mode until {@code hdfs fsck /} reports no mis-replicated block, the
 * replicas copied and the bytes that crossed racks and datacenters (a new replica on a rack, or datacenter, the block
 * had no replica on must have been copied across), and the fewest replicas any block had at any sample (every 200 ms),
 * which must never be below its replication.
 *
 * <p>Peer: Hadoop's {@code BlockPlacementPolicyRackFaultTolerant} on the same flat topology, switched the same way.
 * Throttles: Hadoop's own, {@code dfs.namenode.replication.work.multiplier.per.iteration} (blocks scheduled per live
 * DataNode every {@code dfs.namenode.redundancy.interval.seconds}) and {@code dfs.namenode.replication.max-streams}
 * (copies a DataNode serves at once), at their defaults (2, 2), lower (1, 1) and higher (8, 8); heartbeats and the
 * redundancy interval at Hadoop's defaults (3 s).
 */
@Tag("bench-all")
@Tag("bench-placement-switch")
class PlacementSwitchBenchmark {
  private static final long MB = 1 << 20;
  private static final int FILES_PER_DATANODE = 10;
  private static final long FILE_BYTES = 2 * MB;
  private static final Duration WAIT = Duration.ofMinutes(10);
  private static final String FLAT = "/r1:2,/r2:2,/r3:2,/r4:2";
  private static final String TWO_DATACENTERS = "/dc1/r1:2,/dc1/r2:2,/dc2/r3:2,/dc2/r4:2";

  /** One policy switch to measure: the policy, its topology, and Hadoop's two redundancy throttles. */
  private record Case(String policyName, Class<? extends BlockPlacementPolicy> policy, String topology,
      String throttle, int multiplier, int maxStreams) {}

  @Test
  void placementSwitch() throws Exception {
    List<Case> cases = new ArrayList<>();
    String[] throttles = {"stock-defaults", "lower", "higher"};
    int[] values = {2, 1, 8};
    for (int t = 0; t < throttles.length; t++) {
      cases.add(new Case("one-per-rack", OneReplicaPerRackPlacementPolicy.class, FLAT, throttles[t], values[t],
          values[t]));
      cases.add(new Case("hierarchical", HierarchicalPlacementPolicy.class, TWO_DATACENTERS, throttles[t], values[t],
          values[t]));
    }
    cases.add(new Case("stock-rack-fault-tolerant", BlockPlacementPolicyRackFaultTolerant.class, FLAT, throttles[0],
        values[0], values[0]));

    BenchReport report = BenchReport.start("placement-switch", 1);
    report.root().put("block_bytes", MB);
    ArrayNode rows = report.root().putArray("switches");
    List<List<String>> table = new ArrayList<>();
    BenchChart chart = new BenchChart("Seconds until fsck reports no mis-replicated block", "seconds");
    for (Case k : cases) {
      ObjectNode row = measure(k);
      rows.add(row);
      table.add(List.of(k.policyName(), k.throttle() + " (" + k.multiplier() + ", " + k.maxStreams() + ")",
          row.get("blocks").asText(), row.get("mis_replicated_at_restart").asText(),
          String.format("%.1f", row.get("seconds_to_no_mis_replicated").asDouble()),
          String.format("%.0f", row.get("copied_mb").asDouble()), String.format("%.0f", row.get("cross_rack_mb").asDouble()),
          String.format("%.0f", row.get("cross_datacenter_mb").asDouble()), row.get("fewest_replicas_seen").asText()));
      chart.bar(k.throttle(), k.policyName(), row.get("seconds_to_no_mis_replicated").asDouble());
    }
    report.table("Switched from the default policy by a NameNode restart (throttle: work multiplier, max streams)",
        List.of("policy", "throttle", "blocks", "mis-replicated at restart", "seconds to none", "MB copied",
            "MB across racks", "MB across datacenters", "fewest replicas seen"), table);
    report.chart(chart);
    System.out.println("placement-switch: " + report.write());
  }

  private static ObjectNode measure(Case k) throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology(k.topology())
        .configure(conf -> conf.setLong("dfs.heartbeat.interval", 3)).build()) {
      DistributedFileSystem fs = c.fs();
      List<Path> files = new ArrayList<>();
      List<DataNodeHandle> writers = k.topology().equals(TWO_DATACENTERS) ? c.dataNodesInDatacenter("/dc1")
          : c.dataNodes();
      for (int i = 0; i < 8 * FILES_PER_DATANODE; i++) {
        Path p = new Path("/data/f" + i);
        c.writeFile(0, p, FILE_BYTES, WriteOrigin.fromDataNode(writers.get(i % writers.size())));
        files.add(p);
      }
      c.awaitReplication(0, new Path("/data"), Duration.ofMinutes(2));
      Map<String, Held> before = blocks(fs, files);

      Configuration conf = c.mini().getConfiguration(0);
      conf.set("dfs.block.replicator.classname", k.policy().getName());
      conf.setInt("dfs.namenode.redundancy.interval.seconds", 3);
      conf.setInt("dfs.namenode.replication.work.multiplier.per.iteration", k.multiplier());
      conf.setInt("dfs.namenode.replication.max-streams", k.maxStreams());
      conf.setInt("dfs.namenode.replication.max-streams-hard-limit", Math.max(4, 2 * k.maxStreams()));
      c.mini().restartNameNode(0, true);
      FSNamesystem fsn = c.mini().getNamesystem(0);
      assertEquals(k.policy(), fsn.getBlockManager().getBlockPlacementPolicy().getClass());
      // The clock starts once the restarted NameNode knows every replica of the old layout (every block report in).
      Await.until("the restarted NameNode has every replica reported", WAIT,
          () -> !fsn.isInSafeMode() && c.liveDataNodes(0) == 8 && everyBlockHasItsReplicas(fs, files));
      long start = System.nanoTime();
      long misReplicatedAtRestart = PolicyTestSupport.misReplicated(c);

      ReplicaSampler sampler = new ReplicaSampler(c.fs(), files);
      Thread sampling = new Thread(sampler, "replica-sampler");
      sampling.setDaemon(true);
      sampling.start();
      Await.until("fsck reports no mis-replicated block", WAIT, () -> PolicyTestSupport.misReplicated(c) == 0);
      double seconds = (System.nanoTime() - start) / 1e9;
      sampler.stop();
      sampling.join();

      Map<String, Held> after = blocks(fs, files);
      long copied = 0;
      long crossRack = 0;
      long crossDatacenter = 0;
      for (Map.Entry<String, Held> e : after.entrySet()) {
        Set<String> old = before.get(e.getKey()).holders();
        Set<String> oldRacks = parents(old, 1);
        Set<String> oldDatacenters = parents(old, 2);
        for (String holder : e.getValue().holders()) {
          if (!old.contains(holder)) {
            long bytes = e.getValue().length();
            copied += bytes;
            crossRack += oldRacks.contains(parent(holder, 1)) ? 0 : bytes;
            crossDatacenter += k.topology().equals(TWO_DATACENTERS) && !oldDatacenters.contains(parent(holder, 2))
                ? bytes : 0;
          }
        }
      }
      assertTrue(sampler.samples.get() > 0, "the sampler looked at the blocks");
      ObjectNode row = JsonNodeFactory.instance.objectNode();
      row.put("policy", k.policyName());
      row.put("topology", k.topology());
      row.put("throttle", k.throttle());
      row.put("replication_work_multiplier", k.multiplier());
      row.put("replication_max_streams", k.maxStreams());
      row.put("blocks", after.size());
      row.put("mis_replicated_at_restart", misReplicatedAtRestart);
      row.put("seconds_to_no_mis_replicated", Math.round(seconds * 10) / 10.0);
      row.put("copied_mb", copied / (double) MB);
      row.put("cross_rack_mb", crossRack / (double) MB);
      row.put("cross_datacenter_mb", crossDatacenter / (double) MB);
      row.put("fewest_replicas_seen", sampler.fewest.get());
      row.put("samples", sampler.samples.get());
      row.put("samples_below_replication", sampler.below.get());
      return row;
    }
  }

  /** A block's length and its holders as topology paths ({@code /dc/rack/host:port}). */
  private record Held(long length, Set<String> holders) {}

  /** Every block, by name ({@code file#index}), from one listing of each file. */
  private static Map<String, Held> blocks(DistributedFileSystem fs, List<Path> files) throws Exception {
    Map<String, Held> out = new HashMap<>();
    for (Path p : files) {
      FileStatus st = fs.getFileStatus(p);
      BlockLocation[] blocks = fs.getFileBlockLocations(st, 0, st.getLen());
      for (int b = 0; b < blocks.length; b++) {
        out.put(p + "#" + b, new Held(blocks[b].getLength(), new HashSet<>(List.of(blocks[b].getTopologyPaths()))));
      }
    }
    return out;
  }

  private static boolean everyBlockHasItsReplicas(DistributedFileSystem fs, List<Path> files) throws Exception {
    return blocks(fs, files).values().stream().allMatch(h -> h.holders().size() >= 3);
  }

  /** {@code path} without its last {@code levels} parts: the rack (1) or datacenter (2) of a holder. */
  private static String parent(String path, int levels) {
    String p = path;
    for (int i = 0; i < levels; i++) {
      p = p.substring(0, Math.max(0, p.lastIndexOf('/')));
    }
    return p;
  }

  private static Set<String> parents(Set<String> paths, int levels) {
    Set<String> out = new HashSet<>();
    for (String p : paths) {
      out.add(parent(p, levels));
    }
    return out;
  }

  /** Looks at every block's replica count every 200 ms: the fewest seen, and samples with a block below three. */
  private static final class ReplicaSampler implements Runnable {
    private final DistributedFileSystem fs;
    private final List<Path> files;
    private volatile boolean running = true;
    final AtomicInteger fewest = new AtomicInteger(Integer.MAX_VALUE);
    final AtomicLong samples = new AtomicLong();
    final AtomicLong below = new AtomicLong();

    ReplicaSampler(DistributedFileSystem fs, List<Path> files) {
      this.fs = fs;
      this.files = files;
    }

    void stop() {
      running = false;
    }

    @Override
    public void run() {
      while (running) {
        try {
          int least = Integer.MAX_VALUE;
          for (Path p : files) {
            FileStatus st = fs.getFileStatus(p);
            for (BlockLocation b : fs.getFileBlockLocations(st, 0, st.getLen())) {
              least = Math.min(least, b.getHosts().length);
            }
          }
          fewest.accumulateAndGet(least, Math::min);
          samples.incrementAndGet();
          if (least < 3) {
            below.incrementAndGet();
          }
          Thread.sleep(200);
        } catch (InterruptedException e) {
          return;
        } catch (Exception e) {
          throw new IllegalStateException("sampling the replicas failed", e);
        }
      }
    }
  }
}
