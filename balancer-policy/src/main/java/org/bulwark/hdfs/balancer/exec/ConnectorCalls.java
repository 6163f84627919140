package org.bulwark.hdfs.balancer.exec;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations;

/**
 * The calls on Hadoop's {@link NameNodeConnector} whose shape differs between the Hadoop lines Bulwark
 * serves, resolved once when the class loads so one jar runs on 3.3.6, 3.4.x and 3.5.0:
 * <ul>
 * <li>{@code getBlocks}: 3.4 added the hot-block interval and the storage type (HDFS-16450,
 *     HDFS-16483); 3.3 takes only the size and the minimum block size and returns replicas of every
 *     storage type, so the caller filters by type ({@link #getBlocksFiltersByStorageType()}).</li>
 * <li>the moved-bytes and moved-blocks counters: public since 3.4, package-private in 3.3 (where the
 *     stock balancer reads them from its own package), so they are read reflectively on every line.</li>
 * </ul>
 */
final class ConnectorCalls {
  private static final Method GET_BLOCKS_WITH_TYPE = method("getBlocks", DatanodeInfo.class, long.class,
      long.class, long.class, StorageType.class);
  private static final Method GET_BLOCKS_ANY_TYPE = GET_BLOCKS_WITH_TYPE != null ? null
      : method("getBlocks", DatanodeInfo.class, long.class, long.class);
  private static final Method BYTES_MOVED = method("getBytesMoved");
  private static final Method BLOCKS_MOVED = method("getBlocksMoved");

  static {
    if (GET_BLOCKS_WITH_TYPE == null && GET_BLOCKS_ANY_TYPE == null || BYTES_MOVED == null
        || BLOCKS_MOVED == null) {
      throw new IllegalStateException("This Hadoop's NameNodeConnector has neither getBlocks shape of Hadoop"
          + " 3.3 to 3.5 or lacks its moved-bytes counters: the availability balancer supports Hadoop 3.3.6,"
          + " 3.4.x and 3.5.0");
    }
  }

  private ConnectorCalls() {
  }

  /** Whether {@code getBlocks} returns only replicas on the storage type asked for (3.4 and later). */
  static boolean getBlocksFiltersByStorageType() {
    return GET_BLOCKS_WITH_TYPE != null;
  }

  /**
   * The NameNode's {@code getBlocks} for {@code datanode}; {@code hotBlockTimeInterval} and {@code type}
   * are passed where the line takes them.
   */
  static BlocksWithLocations getBlocks(NameNodeConnector connector, DatanodeInfo datanode, long size,
      long minBlockSize, long hotBlockTimeInterval, StorageType type) throws IOException {
    if (GET_BLOCKS_WITH_TYPE != null) {
      return (BlocksWithLocations) invoke(GET_BLOCKS_WITH_TYPE, connector, datanode, size, minBlockSize,
          hotBlockTimeInterval, type);
    }
    return (BlocksWithLocations) invoke(GET_BLOCKS_ANY_TYPE, connector, datanode, size, minBlockSize);
  }

  /** The bytes every dispatcher of this connector moved so far. */
  static long bytesMoved(NameNodeConnector connector) {
    return counter(BYTES_MOVED, connector);
  }

  /** The blocks every dispatcher of this connector moved so far. */
  static long blocksMoved(NameNodeConnector connector) {
    return counter(BLOCKS_MOVED, connector);
  }

  private static long counter(Method m, NameNodeConnector connector) {
    try {
      return ((AtomicLong) invoke(m, connector)).get();
    } catch (IOException e) {
      throw new IllegalStateException(m.getName() + " cannot fail", e);
    }
  }

  private static Object invoke(Method m, NameNodeConnector connector, Object... args) throws IOException {
    try {
      return m.invoke(connector, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IOException(cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("NameNodeConnector." + m.getName() + " is not accessible", e);
    }
  }

  private static Method method(String name, Class<?>... parameters) {
    try {
      Method m = NameNodeConnector.class.getDeclaredMethod(name, parameters);
      m.setAccessible(true);
      return m;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }
}
