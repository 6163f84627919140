package org.bulwark.hdfs.monitor.collect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.bulwark.hdfs.monitor.history.ObservedBlock;

/** What one scan of a namespace saw: every block with its file and replicas, plus the figures the UI shows. */
public final class NamespaceScan {
  /** A file as the storage-cost advisor needs it. */
  public static final class FileEntry {
    public final String path;
    public final long length;
    public final long rawBytes;

    FileEntry(String path, long length, long rawBytes) {
      this.path = path;
      this.length = length;
      this.rawBytes = rawBytes;
    }
  }

  public final String namespace;
  public final Map<Long, ObservedBlock> blocks = new HashMap<>();
  public final List<FileEntry> files = new ArrayList<>();
  /** Blocks by how many racks hold a replica. */
  public final Map<Integer, Long> blocksByRackCount = new TreeMap<>();
  public long replicas;
  public long missing;
  public long corrupt;
  public long started;
  public long finished;
  public long rpcs;

  NamespaceScan(String namespace) {
    this.namespace = namespace;
  }
}
