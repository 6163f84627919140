package org.bulwark.hdfs.monitor.collect;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HAUtil;

/**
 * The namespaces a monitor polls: every nameservice of {@code dfs.nameservices} (an HA one by its
 * logical URI, so the client's failover proxy provider rides through failovers), or the default file
 * system when no nameservice is configured.
 */
public final class NamespaceUris {
  private NamespaceUris() {
  }

  public static List<URI> of(Configuration conf) {
    List<URI> out = new ArrayList<>();
    Collection<String> ids = DFSUtilClient.getNameServiceIds(conf);
    for (String ns : ids) {
      if (HAUtil.isHAEnabled(conf, ns)) {
        out.add(URI.create("hdfs://" + ns));
      } else {
        String address = conf.getTrimmed("dfs.namenode.rpc-address." + ns);
        if (address == null) {
          throw new IllegalArgumentException("dfs.namenode.rpc-address." + ns + " is not set: cannot reach nameservice " + ns);
        }
        out.add(URI.create("hdfs://" + address));
      }
    }
    if (out.isEmpty()) {
      URI fs = FileSystem.getDefaultUri(conf);
      if (!"hdfs".equals(fs.getScheme())) {
        throw new IllegalArgumentException("fs.defaultFS = '" + fs + "' is not an HDFS URI and dfs.nameservices is empty: "
            + "nothing to monitor");
      }
      out.add(fs);
    }
    return out;
  }

  /** A new client of one namespace, of its own (not the JVM's cached one, which somebody else may close). */
  public static DistributedFileSystem open(URI uri, Configuration conf) throws IOException {
    FileSystem f = FileSystem.newInstance(uri, conf);
    if (!(f instanceof DistributedFileSystem)) {
      f.close();
      throw new IOException(uri + " is not HDFS");
    }
    return (DistributedFileSystem) f;
  }
}
