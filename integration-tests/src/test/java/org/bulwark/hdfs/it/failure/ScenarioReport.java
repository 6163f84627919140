package org.bulwark.hdfs.it.failure;

import java.util.List;

/**
 * What one failure scenario left behind, as issue 7 asks each to report: files written, bytes read
 * back and compared, blocks lost, how long until every block was fully replicated again, and
 * split-brain observations; with blocks fsck still finds mis-replicated, the workload's longest outage
 * and the monitor comparison beside them.
 */
record ScenarioReport(String scenario, long filesWritten, long filesVerified, long bytesVerified, long blocksLost,
    List<String> damagedFiles, long misReplicatedBlocks, long fullyReplicatedMillis, long splitBrainObservations, long monitorFilesCompared,
    MixedWorkload.Outage longestOutage, long operations, long failedOperations) {

  static String header() {
    return String.format("%-46s %8s %9s %12s %6s %6s %10s %6s %8s %9s %7s", "scenario", "written", "verified", "bytes",
        "lost", "misrep", "replicated", "split", "monitor", "outage", "ops");
  }

  String line() {
    return String.format("%-46s %8d %9d %12d %6d %6d %8d ms %6d %8d %6d ms %7d  (longest outage: %s under %s%s)",
        scenario, filesWritten, filesVerified, bytesVerified, blocksLost + damagedFiles.size(), misReplicatedBlocks,
        fullyReplicatedMillis,
        splitBrainObservations, monitorFilesCompared, longestOutage.millis(), operations, longestOutage.operation(),
        longestOutage.fault(), longestOutage.detail().isEmpty() ? "" : "; " + longestOutage.detail());
  }
}
