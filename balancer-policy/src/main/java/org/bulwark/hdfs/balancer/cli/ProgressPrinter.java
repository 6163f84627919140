package org.bulwark.hdfs.balancer.cli;

import java.io.PrintStream;
import java.text.DateFormat;
import java.util.Date;
import org.apache.hadoop.util.StringUtils;
import org.bulwark.hdfs.balancer.exec.IterationResult;
import org.bulwark.hdfs.balancer.exec.PoolProgress;

/** The stock balancer's progress lines, each followed by the share of its moves that added a rack. */
final class ProgressPrinter {
  private final PrintStream out;

  ProgressPrinter(PrintStream out) {
    this.out = out;
  }

  void header() {
    out.println("Time Stamp               Iteration#  Bytes Already Moved  Bytes Left To Move"
        + "  Bytes Being Moved  NameNode  Moves adding a rack");
  }

  void iteration(int iteration, IterationResult r) {
    for (PoolProgress p : r.pools()) {
      String share = p.movesThisIteration() == 0 ? "-"
          : String.format("%.1f%% of %d", p.addingThisIteration() * 100.0 / p.movesThisIteration(),
              p.movesThisIteration());
      out.printf("%-24s %10d  %19s  %18s  %17s  %17s  %s  %s%n",
          DateFormat.getDateTimeInstance().format(new Date()), iteration,
          StringUtils.byteDesc(p.bytesAlreadyMoved()), StringUtils.byteDesc(r.bytesLeftToMove()),
          StringUtils.byteDesc(p.bytesBeingMoved()), p.blocksMoved(), p.nameNode(), share);
    }
  }
}
