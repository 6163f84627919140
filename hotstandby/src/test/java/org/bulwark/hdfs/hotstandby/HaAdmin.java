package org.bulwark.hdfs.hotstandby;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.tools.DFSHAAdmin;

/** {@code hdfs haadmin} run in the test's JVM, writing its output and errors where the test reads them. */
final class HaAdmin extends DFSHAAdmin {
  HaAdmin(Configuration conf, OutputStream out, OutputStream err) {
    setConf(conf);
    setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    setErrOut(new PrintStream(err, true, StandardCharsets.UTF_8));
  }
}
