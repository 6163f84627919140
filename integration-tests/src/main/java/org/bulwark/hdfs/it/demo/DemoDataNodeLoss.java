package org.bulwark.hdfs.it.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.bulwark.hdfs.monitor.BlockMonitor;
import org.bulwark.hdfs.monitor.history.BlockHistory;
import org.bulwark.hdfs.monitor.history.ReplicaSpan;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.StoppedDataNodes;

/**
 * The demo's monitor part: a DataNode crashes, the NameNode re-replicates what it held, and the block
 * monitor's history shows, for one of its blocks, which replica went when and where the new one was
 * made; the pages to open are printed.
 */
final class DemoDataNodeLoss {
  private static final Duration WAIT = Duration.ofMinutes(2);
  private static final SimpleDateFormat TIME = new SimpleDateFormat("HH:mm:ss");

  private final BulwarkMiniCluster cluster;
  private final BlockMonitor monitor;
  private final PrintStream out;

  DemoDataNodeLoss(BulwarkMiniCluster cluster, BlockMonitor monitor, PrintStream out) {
    this.cluster = cluster;
    this.monitor = monitor;
    this.out = out;
  }

  /** Crashes the last DataNode, waits for re-replication and prints what the monitor recorded. */
  void show() throws IOException, InterruptedException, TimeoutException {
    List<DataNodeHandle> dns = cluster.dataNodes();
    int replication = cluster.conf().getInt("dfs.replication", 3);
    if (dns.size() <= replication) {
      out.printf("%n(DataNode loss not shown: %d DataNodes leave nowhere to re-replicate %d replicas)%n", dns.size(), replication);
      return;
    }
    DataNodeHandle victim = dns.get(dns.size() - 1);
    String traced = aFileWithAReplicaOn(victim);
    monitor.pollNow();
    out.printf("%n$ kill -9 the DataNode on %s%n", victim);
    long killedAt = System.nanoTime();
    int live = cluster.liveDataNodes(0);
    StoppedDataNodes stopped = cluster.kill(List.of(victim));
    // The NameNode declares it dead once its heartbeats stop for 2 rechecks + 10 heartbeats (about 11 s here).
    Await.until("the NameNode declares " + victim.hostName() + " dead", WAIT, () -> cluster.liveDataNodes(0) < live);
    cluster.awaitFullyReplicated(0, WAIT);
    out.printf("The NameNode declared it dead and re-made its replicas elsewhere: every block fully replicated "
        + "%.1f s after the kill%n", (System.nanoTime() - killedAt) / 1e9);
    monitor.pollNow();
    if (traced != null) {
      String path = traced;
      short fileReplication = cluster.fs(0).getFileStatus(new Path(path)).getReplication();
      try {
        // The NameNode lists the lost replica until it has processed the DataNode's death for that block,
        // and the new replica from the DataNode's next block report: poll until both are recorded.
        Await.until("the monitor records the lost replica's end and its replacement", Duration.ofSeconds(20), () -> {
          monitor.pollNow();
          List<BlockHistory> history = monitor.store().fileHistory(path);
          return history.stream().anyMatch(h -> h.replicas.stream().anyMatch(r -> !r.isOpen() && r.host.equals(victim.hostName())))
              && history.stream().allMatch(h -> h.replicas.stream().filter(ReplicaSpan::isOpen).count() >= fileReplication);
        });
      } catch (TimeoutException e) {
        out.printf("(the NameNode does not list every change for %s yet)%n", path);
      }
      out.printf("The block monitor's history of %s:%n", traced);
      for (BlockHistory h : monitor.store().fileHistory(traced)) {
        out.printf("  block %d%n", h.blockId);
        for (ReplicaSpan r : h.replicas) {
          out.printf("    %-34s %-9s since %s%s%n", r.host, r.rack, TIME.format(new Date(r.firstSeen)),
              r.isOpen() ? "" : ", gone at " + TIME.format(new Date(r.goneSince)));
        }
      }
    }
    InetSocketAddress ui = monitor.httpAddress();
    String base = "http://" + ui.getHostString() + ":" + ui.getPort() + "/";
    out.printf("Trace it in the monitor: %sdatanode.html?id=%s (what the lost DataNode held and when it went)%n",
        base, victim.hostName());
    if (traced != null) {
      out.printf("                         %sblock.html?path=%s (the block's replica timeline)%n", base,
          URLEncoder.encode(traced, StandardCharsets.UTF_8));
    }
    cluster.restart(stopped);
    out.printf("%s restarted; its now-excess replicas will be deleted by the NameNode%n", victim.hostName());
  }

  private String aFileWithAReplicaOn(DataNodeHandle dn) throws IOException {
    RemoteIterator<LocatedFileStatus> files = cluster.fs(0).listFiles(new Path("/demo/data"), true);
    while (files.hasNext()) {
      LocatedFileStatus f = files.next();
      for (BlockLocation b : f.getBlockLocations()) {
        for (String name : b.getNames()) {
          if (name.startsWith(dn.ipAddress() + ":")) {
            return f.getPath().toUri().getPath();
          }
        }
      }
    }
    return null;
  }
}
