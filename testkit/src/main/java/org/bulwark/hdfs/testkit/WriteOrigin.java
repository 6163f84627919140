package org.bulwark.hdfs.testkit;

/**
 * Where a test write comes from, which is what a placement policy's first choice depends on.
 *
 * <p>Each DataNode of a {@link BulwarkMiniCluster} has its own loopback address, and
 * {@link #fromDataNode} writes through a client whose connections leave from that address (see
 * {@link LoopbackSocketFactory}): the NameNode sees a writer on that DataNode's host and the
 * placement policy runs its writer-local path, as for a MapReduce or Spark task there.
 * {@link #offCluster} writes from 127.0.0.1, where no DataNode lives, as a client on an edge node.
 */
public sealed interface WriteOrigin {
  /** A writer running on {@code dataNode}'s host. */
  static WriteOrigin fromDataNode(DataNodeHandle dataNode) {
    return new OnDataNode(dataNode);
  }

  /**
   * A writer running on {@code dataNode}'s host that names where the replicas go ({@code favoredNodes}, as HBase's
   * region servers do): a layout a seed decides, not the NameNode's random choice.
   */
  static WriteOrigin fromDataNodeFavoring(DataNodeHandle dataNode, java.util.List<java.net.InetSocketAddress> favoredNodes) {
    return new Favoring(dataNode, java.util.List.copyOf(favoredNodes));
  }

  /** A writer outside the cluster. */
  static WriteOrigin offCluster() {
    return OffCluster.INSTANCE;
  }

  record OnDataNode(DataNodeHandle dataNode) implements WriteOrigin {
  }

  record Favoring(DataNodeHandle dataNode, java.util.List<java.net.InetSocketAddress> favoredNodes) implements WriteOrigin {
  }

  enum OffCluster implements WriteOrigin {
    INSTANCE
  }
}
