package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Writes {@link FileContent} to a {@link BulwarkMiniCluster} from a chosen {@link WriteOrigin} and reads
 * it back byte for byte. Kept apart so that every test writes with the cluster's block size and checks
 * content the same way.
 */
final class ClusterFiles {
  private final ClientCache clients;
  private final long blockSize;

  ClusterFiles(ClientCache clients, long blockSize) {
    this.clients = clients;
    this.blockSize = blockSize;
  }

  void write(int ns, Path path, long length, WriteOrigin origin, int replication) throws IOException {
    DataNodeHandle host = origin instanceof WriteOrigin.OnDataNode on ? on.dataNode()
        : origin instanceof WriteOrigin.Favoring f ? f.dataNode() : null;
    DistributedFileSystem fs = clients.client(ns, host);
    DistributedFileSystem.HdfsDataOutputStreamBuilder create = fs.createFile(path).overwrite(true).recursive()
        .replication((short) replication).blockSize(blockSize);
    if (origin instanceof WriteOrigin.Favoring f) {
      create.favoredNodes(f.favoredNodes().toArray(new java.net.InetSocketAddress[0]));
    }
    try (OutputStream out = create.build()) {
      FileContent.write(path.toUri().getPath(), length, out);
    }
  }

  /** Returns the bytes verified. */
  long verify(int ns, Path path, long length) throws IOException {
    try (InputStream in = clients.client(ns, null).open(path)) {
      return FileContent.verify(path.toUri().getPath(), length, in);
    }
  }
}
