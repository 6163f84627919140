package org.bulwark.hdfs.monitor;

import java.io.File;

import org.apache.hadoop.conf.Configuration;

/** The monitor as the cluster tests run it: its embedded store under a test directory, any free port, no timed polls. */
public final class TestMonitors {
  private TestMonitors() {
  }

  /** {@code clusterConf} plus a store under {@code dir}, a free HTTP port and polls only when a test asks. */
  public static Configuration conf(Configuration clusterConf, File dir) {
    Configuration conf = new Configuration(clusterConf);
    conf.set("bulwark.monitor.data.dir", new File(dir, "store").getPath());
    conf.set("bulwark.monitor.http-address", "127.0.0.1:0");
    conf.set("bulwark.monitor.poll.interval", "1h");
    return conf;
  }
}
