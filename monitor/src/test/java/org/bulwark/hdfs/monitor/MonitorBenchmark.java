package org.bulwark.hdfs.monitor;

import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.server.datanode.SimulatedFSDataset;
import org.bulwark.hdfs.monitor.collect.NamespaceSummary;
import org.bulwark.hdfs.monitor.history.DataNodeObservation;
import org.bulwark.hdfs.monitor.history.NamespaceState;
import org.bulwark.hdfs.monitor.history.ObservedBlock;
import org.bulwark.hdfs.monitor.history.PollChanges;
import org.bulwark.hdfs.monitor.store.HistoryStore;
import org.bulwark.hdfs.monitor.store.JdbcHistoryStore;
import org.bulwark.hdfs.monitor.store.PollSummary;
import org.bulwark.hdfs.monitor.store.StoreFactory;
import org.bulwark.hdfs.testkit.BenchChart;
import org.bulwark.hdfs.testkit.BenchReport;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.bulwark.hdfs.testkit.TestPostgres;

/**
 * {@code mvn -B -T 1 -Pbench -Dbench=monitor verify}: (1) full scans of an embedded cluster holding 100,000
 * blocks (simulated DataNode storage: the NameNode is real, the bytes are not), first poll and a
 * steady-state poll; (2) both stores filled with 10 million synthetic replica-interval rows through the
 * same {@code record} path the poller uses, then block-history and DataNode-history queries timed.
 */
@Tag("bench-all")
@Tag("bench-monitor")
class MonitorBenchmark {
  private static final int FILES = Integer.getInteger("bench.monitor.files", 2_000);
  private static final int BLOCKS_PER_FILE = 50;
  private static final long ROWS = Long.getLong("bench.monitor.rows", 10_000_000L);
  private static final int DATANODES = 2_000;
  private static final int QUERIES = 1_000;
  private static final int MILLION_FILES = Integer.getInteger("bench.monitor.million-files", 1_000_000);
  /** Replica intervals each poll closes and as many it opens while queries are timed during polls. */
  private static final int MOVES_PER_POLL = 30_000;

  @TempDir
  File dir;

  @Test
  void monitor() throws Exception {
    // On simulated storage every block written makes each DataNode log an ERROR with a stack trace (a
    // NullPointerException releasing reserved space that simulated replicas do not have): a million files
    // would write gigabytes of it.
    org.apache.log4j.Logger.getLogger("org.apache.hadoop.hdfs.server.datanode.DataNode").setLevel(org.apache.log4j.Level.FATAL);
    BenchReport report = BenchReport.start("monitor", 1);
    ObjectNode root = report.root();
    scan(root);
    scanMillionFiles(root);
    ObjectNode ingest = root.putObject("ingest_rows_per_sec");
    ObjectNode block = root.putObject("query_ms_p99_block_history");
    ObjectNode dataNode = root.putObject("query_ms_p99_datanode_history");
    ObjectNode bytes = root.putObject("bytes_per_interval_row_by_engine");
    ObjectNode duringPoll = root.putObject("query_ms_p99_during_poll");
    for (String engine : new String[] {"embedded", "postgres"}) {
      storeAtScale(engine, ingest, block, dataNode, bytes, duringPoll);
    }
    root.put("ingest_rows_per_sec_embedded", ingest.get("embedded").asDouble());
    root.put("ingest_rows_per_sec_postgres", ingest.get("postgres").asDouble());
    root.put("bytes_per_interval_row", bytes.get("embedded").asDouble());
    root.put("interval_rows", ROWS);
    describeForThePage(report, root);
    System.out.println("wrote " + report.write());
    System.out.println(root.toPrettyString());
  }

  /** Part 1: a namespace of FILES x 50 one-KiB blocks, replication 3, scanned by the poller. */
  private void scan(ObjectNode root) throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2").replication(3)
        .blockSize(1024).configure(SimulatedFSDataset::setFactory).build()) {
      DistributedFileSystem fs = c.fs();
      long started = System.nanoTime();
      writeFiles(fs, FILES, 8, f -> "/bench/d" + (f % 40) + "/f" + f, new byte[BLOCKS_PER_FILE * 1024]);
      System.out.printf("wrote %,d blocks in %.1f s%n", (long) FILES * BLOCKS_PER_FILE, (System.nanoTime() - started) / 1e9);
      c.awaitReplication(0, new org.apache.hadoop.fs.Path("/bench"), java.time.Duration.ofMinutes(5));

      try (BlockMonitor monitor = new BlockMonitor(monitorConf(c, "scan-store", 10_000))) {
        monitor.start();
        long t0 = System.nanoTime();
        monitor.pollNow();
        double first = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        monitor.pollNow();
        double steady = (System.nanoTime() - t1) / 1e9;
        NamespaceSummary s = monitor.status().lastScans().values().iterator().next();
        root.put("scan_blocks", s.blocks);
        root.put("scan_replicas", s.replicas);
        root.put("scan_blocks_per_sec", Math.round(s.blocks / steady));
        root.put("first_poll_s", round(first));
        root.put("steady_poll_s", round(steady));
        root.put("nn_rpcs_per_scan", s.rpcs);
        System.out.printf("poll of %,d blocks: first %.2f s (everything new), then %.2f s; %d NameNode RPCs%n",
            s.blocks, first, steady, s.rpcs);
      }
    }
  }

  /**
   * Part 1b: a namespace of {@code MILLION_FILES} one-block files (simulated storage), polled by the monitor
   * until steady; the monitor's heap is what the JVM holds after the polls (and a full GC) beyond what it held
   * with the cluster alone.
   */
  private void scanMillionFiles(ObjectNode root) throws Exception {
    try (BulwarkMiniCluster c = BulwarkMiniCluster.builder().topology("/r1:2,/r2:2,/r3:2").replication(3)
        .blockSize(1024).configure(SimulatedFSDataset::setFactory).build()) {
      DistributedFileSystem fs = c.fs();
      long started = System.nanoTime();
      writeFiles(fs, MILLION_FILES, 16, f -> "/big/d" + (f / 1_000) + "/f" + f, new byte[1024]);
      System.out.printf("wrote %,d one-block files in %.1f s%n", MILLION_FILES, (System.nanoTime() - started) / 1e9);
      c.awaitReplication(0, new org.apache.hadoop.fs.Path("/big"), java.time.Duration.ofMinutes(10));
      long clusterAlone = usedHeapAfterGc();

      try (BlockMonitor monitor = new BlockMonitor(monitorConf(c, "million-store", 100_000))) {
        monitor.start();
        long t0 = System.nanoTime();
        monitor.pollNow();
        double first = (System.nanoTime() - t0) / 1e9;
        monitor.pollNow();
        long t1 = System.nanoTime();
        monitor.pollNow();
        double steady = (System.nanoTime() - t1) / 1e9;
        long withMonitor = usedHeapAfterGc();
        NamespaceSummary s = monitor.status().lastScans().values().iterator().next();
        double heapMb = Math.max(0, withMonitor - clusterAlone) / 1048576.0;
        root.put("files_1m", s.files);
        root.put("first_poll_s_1m_files", round(first));
        root.put("steady_poll_s_1m_files", round(steady));
        root.put("scan_heap_mb_1m_files", round(heapMb));
        System.out.printf("poll of %,d files (%,d blocks): first %.1f s, steady %.1f s; monitor heap %.0f MB "
            + "(JVM %.0f MB with the cluster alone, %.0f MB with the monitor)%n", s.files, s.blocks, first, steady, heapMb,
            clusterAlone / 1048576.0, withMonitor / 1048576.0);
      }
    }
  }

  /** Writes {@code files} files of {@code data} (blocks of 1 KiB, replication 3) from {@code threads} threads. */
  private static void writeFiles(DistributedFileSystem fs, int files, int threads, java.util.function.IntFunction<String> pathOf,
      byte[] data) throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    int perTask = Math.max(1, Math.min(1_000, files / (threads * 4)));
    for (int from = 0; from < files; from += perTask) {
      int first = from;
      done.add(writers.submit(() -> {
        for (int f = first; f < Math.min(files, first + perTask); f++) {
          org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(pathOf.apply(f));
          try (OutputStream out = fs.createFile(p).recursive().blockSize(1024).replication((short) 3).build()) {
            out.write(data);
          }
        }
        return null;
      }));
    }
    for (Future<?> d : done) {
      d.get();
    }
    writers.shutdown();
  }

  /** The cluster's configuration for a monitor with its embedded store in {@code store}, polling only when told. */
  private Configuration monitorConf(BulwarkMiniCluster c, String store, int rpcPerSec) {
    Configuration conf = c.conf();
    conf.set("bulwark.monitor.data.dir", new File(dir, store).getPath());
    conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
    conf.set("bulwark.monitor.poll.interval", "1h");
    conf.set("bulwark.monitor.max-rpc-per-sec", String.valueOf(rpcPerSec));
    return conf;
  }

  /** Heap in use after full collections (repeated until it stops falling). */
  private static long usedHeapAfterGc() throws InterruptedException {
    java.lang.management.MemoryMXBean memory = java.lang.management.ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(200);
      long now = memory.getHeapMemoryUsage().getUsed();
      if (now >= used * 0.99) {
        return Math.min(now, used);
      }
      used = now;
    }
    return used;
  }

  /** Part 2: ROWS replica intervals (3 per block, on DATANODES DataNodes) through record(), then queries. */
  private void storeAtScale(String engine, ObjectNode ingest, ObjectNode block, ObjectNode dataNode, ObjectNode bytes,
      ObjectNode duringPoll) throws Exception {
    File embeddedDir = new File(dir, "scale-" + engine);
    String schema = "bulwark_bench_" + System.nanoTime();
    try (HistoryStore store = open(engine, embeddedDir, schema)) {
      int ns = store.namespaceId("hdfs://bench");
      int[] storages = new int[DATANODES];
      for (int d = 0; d < DATANODES; d++) {
        int id = store.dataNodeId("uuid-" + d, "dn" + d + ".bench", "10.0." + (d / 250) + "." + (d % 250) + ":9866",
            "/dc" + (d % 2) + "/r" + (d % 100));
        storages[d] = store.storageId(id, "DS-" + d, "DISK");
      }
      Random random = new Random(1);
      long blocks = ROWS / 3;
      long t0 = System.nanoTime();
      long time = 1_700_000_000_000L;
      NamespaceState state = new NamespaceState();
      for (long from = 0; from < blocks; from += 100_000) {
        Map<Long, ObservedBlock> seen = new HashMap<>();
        for (long b = from; b < Math.min(blocks, from + 100_000); b++) {
          int first = random.nextInt(DATANODES);
          seen.put(1_073_741_825L + b, new ObservedBlock(16_386 + b / 50, "/warehouse/t" + (b / 500_000) + "/part-" + (b / 50),
              new int[] {storages[first], storages[(first + 1 + random.nextInt(DATANODES - 1)) % DATANODES],
                  storages[(first + DATANODES / 2) % DATANODES]}, false, false));
        }
        // Each chunk is a fresh state: only these blocks are "seen", nothing is closed.
        PollChanges c = new NamespaceState().diff(ns, time++, seen, Collections.<Integer, DataNodeObservation>emptyMap());
        store.record(c, new PollSummary(time, time, 0, seen.size(), seen.size() * 3L, 0));
        store.compactIfGrown(); // as the poller does after each poll
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      long rows = blocks * 3;
      ingest.put(engine, Math.round(rows / seconds));
      System.out.printf("%s: %,d interval rows (+%,d file rows) in %.1f s%n", engine, rows, blocks, seconds);

      List<Double> blockMs = new ArrayList<>();
      for (int q = 0; q < QUERIES; q++) {
        long id = 1_073_741_825L + (long) (random.nextDouble() * blocks);
        long s = System.nanoTime();
        if (store.blockHistory(id).get(0).replicas.size() != 3) {
          throw new AssertionError("block " + id + " should have 3 replicas");
        }
        blockMs.add((System.nanoTime() - s) / 1e6);
      }
      List<Double> dnMs = new ArrayList<>();
      for (int q = 0; q < QUERIES / 5; q++) {
        String dn = "uuid-" + random.nextInt(DATANODES);
        long s = System.nanoTime();
        store.dataNodeStates(dn);
        // What the DataNode page asks for: its newest replica spans, one page.
        if (store.dataNodeReplicas(dn, org.bulwark.hdfs.monitor.web.ApiServlet.DEFAULT_PAGE).isEmpty()) {
          throw new AssertionError(dn + " should hold replicas");
        }
        dnMs.add((System.nanoTime() - s) / 1e6);
      }
      block.put(engine, round(p99(blockMs)));
      dataNode.put(engine, round(p99(dnMs)));
      System.out.printf("%s: block history p99 %.2f ms, DataNode history p99 %.2f ms%n", engine, p99(blockMs), p99(dnMs));
      // Measured after the load (the file as polls leave it), before the polls below add rows of their own.
      bytes.put(engine, round(bytesPerRow(engine, embeddedDir, schema)));
      duringPoll.put(engine, round(queriesDuringPolls(engine, store, ns, storages, blocks, time)));
    }
    if (!"embedded".equals(engine)) {
      try (Connection c = TestPostgres.connect(); Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  /**
   * Block and DataNode history queries timed while polls write: a writer thread records poll after poll,
   * each closing the {@code MOVES_PER_POLL} replica intervals the one before opened and opening as many on
   * other blocks (with their file rows); only queries that start and end inside a poll's transaction count.
   * The p99 of both kinds together.
   */
  private static double queriesDuringPolls(String engine, HistoryStore store, int ns, int[] storages, long blocks,
      long startTime) throws Exception {
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong recording = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
    ExecutorService writer = Executors.newSingleThreadExecutor();
    Future<?> writing = writer.submit(() -> {
      Random random = new Random(2);
      long time = startTime + 1_000;
      Map<Long, Integer> before = new HashMap<>();
      while (!stop.get()) {
        NamespaceState state = new NamespaceState();
        before.forEach(state::openReplica);
        Map<Long, ObservedBlock> seen = new HashMap<>();
        Map<Long, Integer> now = new HashMap<>();
        while (seen.size() < MOVES_PER_POLL) {
          long b = 1_073_741_825L + (long) (random.nextDouble() * blocks);
          int storage = storages[random.nextInt(DATANODES)];
          now.put(b, storage);
          seen.put(b, new ObservedBlock(16_386 + b / 50, "/moved/part-" + b, new int[] {storage}, false, false));
        }
        PollChanges c = state.diff(ns, time, seen, Collections.<Integer, DataNodeObservation>emptyMap());
        recording.incrementAndGet(); // odd: a poll's transaction is open
        store.record(c, new PollSummary(time, time, 0, seen.size(), seen.size(), 0));
        recording.incrementAndGet();
        time++;
        before = now;
        polls.incrementAndGet();
      }
      return null;
    });
    Random random = new Random(3);
    List<Double> ms = new ArrayList<>();
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(5);
    while (ms.size() < QUERIES && System.nanoTime() < deadline) {
      long at = recording.get();
      if (at % 2 == 0) {
        Thread.onSpinWait();
        continue;
      }
      long s = System.nanoTime();
      if (ms.size() % 5 == 4) {
        store.dataNodeReplicas("uuid-" + random.nextInt(DATANODES), org.bulwark.hdfs.monitor.web.ApiServlet.DEFAULT_PAGE);
      } else {
        store.blockHistory(1_073_741_825L + (long) (random.nextDouble() * blocks));
      }
      double took = (System.nanoTime() - s) / 1e6;
      if (recording.get() == at) {
        ms.add(took);
      }
    }
    stop.set(true);
    writing.get();
    writer.shutdown();
    System.out.printf("%s: %d queries during %d polls (%,d replica intervals closed and opened each): p99 %.2f ms%n",
        engine, ms.size(), polls.get(), MOVES_PER_POLL, p99(ms));
    return p99(ms);
  }

  private static HistoryStore open(String engine, File embeddedDir, String schema) throws Exception {
    if ("embedded".equals(engine)) {
      return StoreFactory.embedded(embeddedDir, 300_000);
    }
    try (Connection c = TestPostgres.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
    }
    return JdbcHistoryStore.open(TestPostgres.url(schema) + "&reWriteBatchedInserts=true", TestPostgres.credentials(),
        "PostgreSQL bench", 300_000);
  }

  /** Storage per interval row: the whole store (tables and indexes) divided by the interval rows. */
  private static double bytesPerRow(String engine, File embeddedDir, String schema) throws Exception {
    long rows = (ROWS / 3) * 3;
    if ("embedded".equals(engine)) {
      long size;
      try (Stream<Path> files = Files.walk(embeddedDir.toPath())) {
        size = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
      }
      return (double) size / rows;
    }
    try (Connection c = TestPostgres.connect(); Statement s = c.createStatement()) {
      long size;
      try (ResultSet rs = s.executeQuery("SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c "
          + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '" + schema + "' AND c.relkind = 'r'")) {
        rs.next();
        size = rs.getLong(1);
      }
      return (double) size / rows;
    }
  }

  private static double p99(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1);
  }

  /** The page's tables (polls; the two stores side by side) and a chart of the stores' query latencies. */
  private static void describeForThePage(BenchReport report, ObjectNode root) {
    report.table("Polls of an embedded cluster (real NameNode, simulated DataNode storage)",
        List.of("namespace", "first poll (s)", "steady poll (s)", "blocks per second", "NameNode RPCs", "monitor heap (MB)"),
        List.of(List.of(String.format("%,d blocks in %,d files", root.get("scan_blocks").asLong(), FILES),
                root.get("first_poll_s").asText(), root.get("steady_poll_s").asText(),
                String.format("%,d", root.get("scan_blocks_per_sec").asLong()), root.get("nn_rpcs_per_scan").asText(), ""),
            List.of(String.format("%,d one-block files", root.get("files_1m").asLong()),
                root.get("first_poll_s_1m_files").asText(), root.get("steady_poll_s_1m_files").asText(), "", "",
                root.get("scan_heap_mb_1m_files").asText())));
    List<List<String>> rows = new ArrayList<>();
    BenchChart chart = new BenchChart(String.format("History queries, p99, on %,d replica intervals", ROWS), "ms");
    for (String engine : new String[] {"embedded", "postgres"}) {
      String name = engine.equals("embedded") ? "embedded (H2)" : "PostgreSQL";
      rows.add(List.of(name, String.format("%,d", root.get("ingest_rows_per_sec").get(engine).asLong()),
          root.get("bytes_per_interval_row_by_engine").get(engine).asText(),
          root.get("query_ms_p99_block_history").get(engine).asText(),
          root.get("query_ms_p99_datanode_history").get(engine).asText(),
          root.get("query_ms_p99_during_poll").get(engine).asText()));
      chart.bar("block history", name, root.get("query_ms_p99_block_history").get(engine).asDouble());
      chart.bar("DataNode history", name, root.get("query_ms_p99_datanode_history").get(engine).asDouble());
      chart.bar("during a poll", name, root.get("query_ms_p99_during_poll").get(engine).asDouble());
    }
    report.table(String.format("History stores at %,d replica intervals", ROWS), List.of("store", "rows recorded per second",
        "bytes per row", "block history p99 (ms)", "DataNode history p99 (ms)", "queries during a poll p99 (ms)"), rows);
    report.chart(chart);
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
