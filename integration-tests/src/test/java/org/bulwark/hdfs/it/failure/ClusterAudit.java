package org.bulwark.hdfs.it.failure;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.security.UserGroupInformation;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.FileContent;

/**
 * The checks after every scenario: every block fully replicated again (timed), every file the workload
 * wrote read back and compared byte for byte, {@code hdfs fsck} on every nameservice without missing
 * or corrupt blocks, and the block monitor's open replicas equal to the NameNodes' block locations.
 */
final class ClusterAudit {
  private static final Duration REPLICATION_WAIT = Duration.ofMinutes(4);
  private static final Duration REPAIR_WAIT = Duration.ofSeconds(60);
  private static final Duration FSCK_WAIT = Duration.ofSeconds(60);
  private static final String STANDBY_ANSWER = "is not supported in state standby";
  private static final Pattern MISSING = Pattern.compile("Missing blocks:\\s+(\\d+)");
  private static final Pattern CORRUPT = Pattern.compile("Corrupt blocks:\\s+(\\d+)");
  private static final Pattern MIS_REPLICATED = Pattern.compile("Mis-replicated blocks:\\s+(\\d+)");

  private final AllPluginsCluster c;
  private final MixedWorkload workload;

  ClusterAudit(AllPluginsCluster c, MixedWorkload workload) {
    this.c = c;
    this.workload = workload;
  }

  /** What {@code hdfs fsck /} says about one nameservice. */
  record Fsck(long missing, long corrupt, long misReplicated, boolean healthy, String output) {
  }

  /**
   * Audits the cluster once the workload has stopped. {@code healedAt} is when the last fault was
   * undone ({@link System#nanoTime}); the counters are those taken when the scenario began.
   */
  ScenarioReport run(String scenario, long healedAt, long filesWrittenBefore, long splitBrainBefore, long opsBefore,
      long failuresBefore) throws Exception {
    // A block of a file left open by a failed write is re-replicated only once the file is closed.
    recoverLeases();
    c.awaitFullyReplicated(REPLICATION_WAIT);
    long replicatedMillis = (System.nanoTime() - healedAt) / 1_000_000;

    long bytes = 0;
    long verified = 0;
    List<String> damaged = new ArrayList<>();
    for (Map.Entry<MixedWorkload.FileKey, MixedWorkload.Expected> e : workload.files().entrySet()) {
      try {
        bytes += verify(e.getKey(), e.getValue());
        verified++;
      } catch (IOException | AssertionError x) {
        damaged.add(e.getKey() + ": " + MixedWorkload.oneLine(x));
      }
    }
    long lost = 0;
    long misReplicated = 0;
    for (int ns = 0; ns < AllPluginsCluster.NAMESERVICES; ns++) {
      Fsck f = fsck(ns);
      if (!f.healthy() && f.missing() == 0 && f.corrupt() == 0) {
        throw new AssertionError("fsck of ns" + (ns + 1) + " is not HEALTHY:\n" + f.output());
      }
      lost += f.missing() + f.corrupt();
      misReplicated += f.misReplicated() == 0 ? 0 : misReplicatedAfterRepair(ns, f);
    }
    long compared = monitorAgrees();
    return new ScenarioReport(scenario, workload.filesWritten() - filesWrittenBefore, verified, bytes, lost, damaged,
        misReplicated, replicatedMillis, c.splitBrainObservations() - splitBrainBefore, compared, workload.longestOutage(),
        workload.operations() - opsBefore, workload.failures() - failuresBefore);
  }

  /**
   * The mis-replicated blocks of nameservice {@code ns} once its active NameNode has had
   * {@link #REPAIR_WAIT} to repair them: a block can be between two steps of its repair when the audit
   * comes, in no queue the replication counts show (a reconstruction that timed out waits for the
   * monitor's next round to be queued again). Prints fsck's lines for the blocks, so a run that ends with
   * some says which.
   */
  private long misReplicatedAfterRepair(int ns, Fsck first) throws Exception {
    System.out.println("fsck of ns" + (ns + 1) + " reports " + first.misReplicated() + " mis-replicated:\n"
        + violations(first.output()));
    long start = System.nanoTime();
    Fsck[] last = {first};
    try {
      Await.until("ns" + (ns + 1) + " has no mis-replicated block", REPAIR_WAIT, () -> {
        last[0] = fsck(ns);
        return last[0].misReplicated() == 0;
      });
      System.out.printf("ns%d: no mis-replicated block after %d ms more%n", ns + 1,
          (System.nanoTime() - start) / 1_000_000);
    } catch (TimeoutException e) {
      String left = violations(last[0].output());
      System.out.println("ns" + (ns + 1) + " still reports " + last[0].misReplicated() + " mis-replicated after "
          + REPAIR_WAIT.toSeconds() + " s:\n" + left + "what the NameNodes know of them:\n"
          + RepairDiagnosis.of(c, ns, left));
    }
    return last[0].misReplicated();
  }

  private static String violations(String fsckOutput) {
    StringBuilder lines = new StringBuilder();
    for (String line : fsckOutput.split("\n")) {
      if (line.contains("placement policy is violated")) {
        lines.append(line).append('\n');
      }
    }
    return lines.toString();
  }

  /** Files a failed write or append left open: their lease is recovered, as an application would. */
  private void recoverLeases() throws Exception {
    for (Map.Entry<MixedWorkload.FileKey, MixedWorkload.Expected> e : workload.files().entrySet()) {
      if (e.getValue().exact()) {
        continue;
      }
      DistributedFileSystem fs = c.cluster.fs(e.getKey().ns());
      Path p = new Path(e.getKey().path());
      Await.until("the lease of " + e.getKey() + " is recovered", Duration.ofSeconds(90), () -> {
        try {
          return fs.recoverLease(p);
        } catch (FileNotFoundException neverCreated) {
          return true;
        }
      });
    }
  }

  /** Reads a file back; returns the bytes compared. */
  private long verify(MixedWorkload.FileKey key, MixedWorkload.Expected expected) throws IOException {
    DistributedFileSystem fs = c.cluster.fs(key.ns());
    Path p = new Path(key.path());
    long length;
    if (expected.exact()) {
      length = expected.length();
    } else {
      try {
        length = fs.getFileStatus(p).getLen();
      } catch (FileNotFoundException neverCreated) {
        if (expected.length() > 0) {
          throw neverCreated;
        }
        return 0;
      }
      if (length < expected.length()) {
        throw new AssertionError(key + " holds " + length + " bytes, fewer than the " + expected.length() + " acknowledged");
      }
    }
    try (InputStream in = fs.open(p)) {
      return FileContent.verify(key.path(), length, in);
    }
  }

  /**
   * What {@code hdfs fsck /} reports for nameservice {@code ns}: the same request to the active NameNode's
   * fsck servlet that the command makes once it has found the active NameNode.
   */
  Fsck fsck(int ns) throws Exception {
    String[] output = {null};
    // A NameNode that went standby between being found active and answering: ask the active one again.
    Await.until("fsck of ns" + (ns + 1) + " answered by an active NameNode", FSCK_WAIT, () -> {
      output[0] = fsckOnce(ns);
      return !output[0].contains(STANDBY_ANSWER);
    });
    return parse(ns, output[0]);
  }

  private String fsckOnce(int ns) throws Exception {
    NameNode active = c.ha.activeNameNode(ns);
    InetSocketAddress http = active.getHttpAddress();
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    URL url = new URL("http://" + http.getHostString() + ":" + http.getPort() + "/fsck?ugi="
        + URLEncoder.encode(user, StandardCharsets.UTF_8) + "&path=%2F");
    HttpURLConnection conn = (HttpURLConnection) url.openConnection();
    conn.setConnectTimeout(10_000);
    conn.setReadTimeout(120_000);
    String output;
    try (InputStream in = conn.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    return output;
  }

  private static Fsck parse(int ns, String output) {
    if (!output.contains("Status: ")) {
      throw new AssertionError("fsck of ns" + (ns + 1) + " gave no status:\n" + output);
    }
    return new Fsck(count(MISSING, output), count(CORRUPT, output), count(MIS_REPLICATED, output),
        output.contains("is HEALTHY"), output);
  }

  private static long count(Pattern p, String output) {
    Matcher m = p.matcher(output);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  /**
   * Waits for the monitor to poll after the cluster settled, then checks that for every file the
   * blocks it holds open under that path, and their open replicas, are those the NameNode lists.
   * A replica deleted between the poll and the comparison makes it poll again. Returns the files compared.
   */
  private long monitorAgrees() throws Exception {
    String[] difference = new String[1];
    long[] compared = new long[1];
    try {
      Await.until("the block monitor agrees with the NameNodes", Duration.ofSeconds(90), () -> {
        c.monitor.awaitFreshPoll();
        try (HistoryStore store = c.monitor.openStore()) {
          compared[0] = 0;
          for (MixedWorkload.FileKey key : workload.files().keySet()) {
            difference[0] = compare(store, key);
            if (difference[0] != null) {
              return false;
            }
            compared[0]++;
          }
          return true;
        }
      });
    } catch (TimeoutException e) {
      throw new AssertionError("the monitor's history disagrees with the NameNode: " + difference[0], e);
    }
    return compared[0];
  }

  private String compare(HistoryStore store, MixedWorkload.FileKey key) throws IOException {
    Map<Long, Set<String>> nameNode = new HashMap<>();
    try {
      for (LocatedBlock b : c.cluster.fs(key.ns()).getClient().getLocatedBlocks(key.path(), 0, Long.MAX_VALUE)
          .getLocatedBlocks()) {
        nameNode.put(b.getBlock().getBlockId(), new HashSet<>(List.of(b.getStorageIDs())));
      }
    } catch (FileNotFoundException neverCreated) {
      // a create that failed before the NameNode saw it: the monitor must hold nothing either
    }
    String namespace = c.cluster.uri(key.ns()).toString();
    Map<Long, Set<String>> monitor = new HashMap<>();
    for (BlockHistory h : store.fileHistory(key.path())) {
      boolean open = h.namespace.equals(namespace)
          && h.files.stream().anyMatch(f -> f.goneSince == 0 && f.path.equals(key.path()));
      if (open) {
        Set<String> replicas = new HashSet<>();
        for (ReplicaSpan r : h.replicas) {
          if (r.isOpen()) {
            replicas.add(r.storage);
          }
        }
        monitor.put(h.blockId, replicas);
      }
    }
    return nameNode.equals(monitor) ? null : key + ": NameNode " + nameNode + ", monitor " + monitor;
  }

}
