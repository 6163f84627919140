package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.util.ToolRunner;
import org.bulwark.hdfs.testkit.BulwarkMiniCluster;
import org.bulwark.hdfs.testkit.DataNodeHandle;
import org.bulwark.hdfs.testkit.WriteOrigin;

/** Writes and checks the policy tests share. */
final class PolicyTestSupport {
  static final long MB = 1 << 20;

  private PolicyTestSupport() {
  }

  /** Writes two 2-block files from each DataNode's host and {@code offCluster} from off-cluster. */
  static List<Path> writeFromEverywhere(BulwarkMiniCluster c, String dir, int replication, int offCluster)
      throws Exception {
    List<Path> files = new ArrayList<>();
    for (DataNodeHandle h : c.dataNodes()) {
      for (int k = 0; k < 2; k++) {
        Path p = new Path(dir + "/dn" + h.index() + "-" + k);
        c.writeFile(0, p, 2 * MB, WriteOrigin.fromDataNode(h), replication);
        files.add(p);
      }
    }
    for (int k = 0; k < offCluster; k++) {
      Path p = new Path(dir + "/off-" + k);
      c.writeFile(0, p, 2 * MB, WriteOrigin.offCluster(), replication);
      files.add(p);
    }
    c.awaitReplication(0, new Path(dir), Duration.ofSeconds(60));
    return files;
  }

  /** The "Mis-replicated blocks" figure of {@code hdfs fsck /}. */
  static long misReplicated(BulwarkMiniCluster c) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int rc = ToolRunner.run(c.conf(), new DFSck(c.conf(), new PrintStream(bytes, true, StandardCharsets.UTF_8)), new String[] {"/"});
    String out = bytes.toString(StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("Mis-replicated blocks:\\s+(\\d+)").matcher(out);
    assertTrue(m.find(), out);
    assertEquals(0, rc, out);
    return Long.parseLong(m.group(1));
  }
}
