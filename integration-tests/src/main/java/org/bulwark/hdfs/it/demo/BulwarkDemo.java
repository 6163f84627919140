package org.bulwark.hdfs.it.demo;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.balancer.BalancerLauncher;
import org.bulwark.hdfs.monitor.BlockMonitor;
import org.bulwark.hdfs.placement.rescan.TopologyGrowthRescan;
import org.bulwark.hdfs.testkit.Await;
import org.bulwark.hdfs.testkit.BlockSpread;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;

/**
 * The README's main job ({@code ./bulwark demo}): an embedded multi-rack, multi-datacenter HDFS in this
 * JVM with Bulwark's plugins on it. It writes a data set the way a real cluster receives one (most
 * files from tasks on DataNode hosts, some from off-cluster clients), shows where the replicas went
 * (utilisation per DataNode and per rack, blocks by number of racks and datacenters), prints the
 * NameNode web UI address and runs until Ctrl-C. {@code -D} options reach the cluster's configuration.
 */
public final class BulwarkDemo extends Configured implements Tool {
  private final PrintStream out;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  /** Set once the demo has shown everything and only waits to be stopped. */
  private volatile boolean running;

  public BulwarkDemo(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new BulwarkDemo(System.out), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (Arrays.asList(args).contains("-help")) {
      out.println(DemoOptions.USAGE);
      return 0;
    }
    DemoOptions o;
    try {
      o = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("bulwark demo: " + e.getMessage());
      System.err.println(DemoOptions.USAGE);
      return 2;
    }
    Configuration fromCommandLine = commandLineSettings(getConf());
    BulwarkMiniCluster.Builder builder = BulwarkMiniCluster.builder()
        .topology(o.topology.toString())
        .capacity(o.capacity)
        .baseDir(o.dir.getAbsoluteFile())
        .configure(c -> {
          // Blocks written while a rack or datacenter was away are spread over it once it is back.
          c.set("dfs.namenode.plugins", TopologyGrowthRescan.class.getName());
          fromCommandLine.forEach(e -> c.set(e.getKey(), e.getValue()));
        });
    if (o.placement != null) {
      builder.placementPolicy(o.placement);
    }
    if (o.nameNodes > 1) {
      DemoHotStandby.configure(builder, o.nameNodes);
    }
    out.printf("Starting an embedded HDFS: %d DataNodes on %d racks in %d datacenters (%s), placement %s%n",
        o.topology.dataNodeCount(), o.topology.racks().size(), o.topology.datacenters().size(), o.topology,
        o.placement == null ? "Hadoop's default" : o.placement.getName());
    // Ctrl-C: the cluster is closed by this thread; a signal during the setup interrupts what it was doing.
    Thread main = Thread.currentThread();
    BulwarkMiniCluster cluster = null;
    DemoHotStandby ha = null;
    BlockMonitor monitor = null;
    try (StopOnSignal signals = StopOnSignal.install(() -> {
      stop();
      if (!running) {
        main.interrupt();
      }
    })) {
      try {
        cluster = builder.build();
        if (o.nameNodes > 1) {
          ha = DemoHotStandby.start(cluster, out);
        }
        writeDataSet(cluster, o);
        report(cluster);
        monitor = startMonitor(cluster, o);
        if (o.balancer != null) {
          writeSkewed(cluster, o);
          report(cluster);
          balance(cluster, o.balancer, new File(o.dir.getAbsoluteFile(), "balancer-report.json"));
          report(cluster);
        }
        if (ha != null) {
          ha.showFailover();
        }
        new DemoDataNodeLoss(cluster, monitor, out).show();
        monitor.pollNow();
        out.printf("%nBlock monitor (replica history, missing-block forensics, storage-cost advisor): http://%s:%d/%n",
            monitor.httpAddress().getHostString(), monitor.httpAddress().getPort());
        out.printf("%nNameNode web UI: http://%s/%n",
            DemoHotStandby.httpAddress(ha != null ? ha.activeNameNode() : cluster.mini().getNameNode(0)));
        running = true;
        if (!o.exitWhenDone) {
          out.println("Running; press Ctrl-C to stop.");
          stopRequested.await();
        }
        return 0;
      } catch (Exception e) {
        if (signals.signalled()) {
          out.println("Stopped before the demo's end.");
          return 0;
        }
        throw e;
      } finally {
        Thread.interrupted(); // a signal's interrupt must not cut the shutdown short
        out.println("Stopping the cluster.");
        if (monitor != null) {
          monitor.close();
        }
        if (ha != null) {
          ha.close();
        }
        if (cluster != null) {
          cluster.close();
        }
      }
    }
  }

  /**
   * The {@code -D key=value} settings of the command line only: copying the whole configuration would
   * pin Hadoop's defaults (such as the DataNode ports) over the embedded cluster's own choices.
   */
  private static Configuration commandLineSettings(Configuration conf) {
    Configuration picked = new Configuration(false);
    for (Map.Entry<String, String> e : conf) {
      String[] sources = conf.getPropertySources(e.getKey());
      if (sources != null && Arrays.asList(sources).contains("from command line")) {
        picked.set(e.getKey(), e.getValue());
      }
    }
    return picked;
  }

  /** hdfs blockmonitor on the embedded cluster, its history in the demo directory; first poll now. */
  private BlockMonitor startMonitor(BulwarkMiniCluster cluster, DemoOptions o) throws Exception {
    Configuration conf = cluster.conf();
    conf.set("bulwark.monitor.data.dir", new File(o.dir.getAbsoluteFile(), "blockmonitor").getPath());
    conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
    conf.set("bulwark.monitor.poll.interval", "10s");
    BlockMonitor monitor = new BlockMonitor(conf);
    monitor.start();
    monitor.pollNow();
    return monitor;
  }

  /** Ends a demo that runs until stopped (what Ctrl-C does). */
  public void stop() {
    stopRequested.countDown();
  }

  /** Two files in three from a task on a random DataNode's host, the rest from an edge node. */
  private void writeDataSet(BulwarkMiniCluster cluster, DemoOptions o) throws IOException {
    Random random = new Random(o.seed);
    List<DataNodeHandle> dns = cluster.dataNodes();
    int local = 0;
    long started = System.nanoTime();
    for (int i = 0; i < o.files; i++) {
      Path p = new Path(String.format("/demo/data/part-%05d", i));
      if (i % 3 == 2) {
        cluster.writeFile(p, o.fileSize, WriteOrigin.offCluster());
      } else {
        cluster.writeFile(p, o.fileSize, WriteOrigin.fromDataNode(dns.get(random.nextInt(dns.size()))));
        local++;
      }
    }
    try {
      cluster.awaitReplication(0, new Path("/demo"), Duration.ofSeconds(60));
    } catch (TimeoutException | InterruptedException e) {
      throw new IOException("replicas of the data set did not all reach the NameNode", e);
    }
    out.printf("Wrote %d files of %,d bytes under /demo/data in %.1f s: %d from DataNode hosts, %d from off-cluster%n",
        o.files, o.fileSize, (System.nanoTime() - started) / 1e9, local, o.files - local);
  }

  /**
   * A third more data written by tasks on one DataNode of each of two racks, as a job pinned to a
   * few hosts does: those DataNodes fill far above the others.
   */
  private void writeSkewed(BulwarkMiniCluster cluster, DemoOptions o) throws IOException {
    List<DataNodeHandle> dns = cluster.dataNodes();
    List<DataNodeHandle> writers = List.of(dns.get(0), dns.get(dns.size() - 1));
    int files = Math.max(1, o.files / 3);
    for (int i = 0; i < files; i++) {
      cluster.writeFile(new Path(String.format("/demo/skewed/part-%05d", i)), o.fileSize,
          WriteOrigin.fromDataNode(writers.get(i % writers.size())));
    }
    try {
      cluster.awaitReplication(0, new Path("/demo"), Duration.ofSeconds(60));
      long expected = 0;
      for (FileStatus f : cluster.fs().listStatus(new Path("/demo/skewed"))) {
        expected += f.getLen() * f.getReplication();
      }
      long skewedBytes = expected;
      // the balancer works from the DataNodes' reports: let them count the new replicas first
      Await.until("DataNodes report the skewed write", Duration.ofSeconds(60),
          () -> cluster.utilisation().dataNodes().stream().mapToLong(e -> e.used()).sum() >= skewedBytes);
    } catch (TimeoutException | InterruptedException e) {
      throw new IOException("replicas of the skewed write did not all reach the NameNode", e);
    }
    out.printf("%nSkewed write: %d more files from %s and %s%n", files, writers.get(0), writers.get(1));
  }

  /**
   * Runs {@code hdfs balancer -policy POLICY -threshold 5} against the embedded cluster; the availability
   * policy also writes its JSON report to {@code report}.
   */
  private void balance(BulwarkMiniCluster cluster, String policy, File report) throws Exception {
    List<String> args = new ArrayList<>(List.of("-policy", policy, "-threshold", "5"));
    if ("availability".equals(policy)) {
      args.addAll(List.of("-report", report.getPath()));
    }
    out.printf("%n$ hdfs balancer %s%n", String.join(" ", args));
    PrintStream stdout = System.out;
    System.setOut(out); // the stock balancer prints to System.out
    long started = System.nanoTime();
    try {
      int exit = ToolRunner.run(cluster.conf(), new BalancerLauncher(out, out), args.toArray(new String[0]));
      out.printf("(balancer exit code %d after %.1f s)%n", exit, (System.nanoTime() - started) / 1e9);
    } finally {
      System.setOut(stdout);
    }
    if (report.isFile()) {
      out.printf("Its JSON report (moves, bytes, rack-adding share, utilisation and blocks by racks before and after): %s%n", report);
    }
    try {
      cluster.awaitReplication(0, new Path("/demo"), Duration.ofSeconds(60));
    } catch (TimeoutException e) {
      throw new IOException("replication did not settle after balancing", e);
    }
  }

  private void report(BulwarkMiniCluster cluster) throws IOException {
    out.println();
    out.print(cluster.utilisation().table());
    BlockSpread spread = cluster.blockSpread(0, new Path("/demo"));
    out.println();
    out.printf("Blocks by number of racks holding a replica: 1 rack %d, 2 racks %d, 3+ racks %d (of %d blocks)%n",
        spread.blocksOnRacks(1), spread.blocksOnRacks(2),
        spread.blocksByRackCount().tailMap(3).values().stream().mapToLong(Long::longValue).sum(), spread.blocks());
    long oneDc = spread.blocksByDatacenterCount().getOrDefault(1, 0L);
    out.printf("Blocks by number of datacenters holding a replica: %s%n", spread.blocksByDatacenterCount());
    if (cluster.topology().datacenters().size() > 1) {
      out.printf("  %d of %d blocks would be lost with the datacenter that holds all their replicas.%n", oneDc, spread.blocks());
    }
  }
}
