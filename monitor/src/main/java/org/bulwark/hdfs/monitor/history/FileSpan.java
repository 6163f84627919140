package org.bulwark.hdfs.monitor.history;

/** A block's membership of a file under one path, from when it was first seen until it went (0: still there). */
public final class FileSpan {
  public final String namespace;
  public final long blockId;
  public final long fileId;
  public final String path;
  public final long firstSeen;
  public final long goneSince;

  public FileSpan(String namespace, long blockId, long fileId, String path, long firstSeen, long goneSince) {
    this.namespace = namespace;
    this.blockId = blockId;
    this.fileId = fileId;
    this.path = path;
    this.firstSeen = firstSeen;
    this.goneSince = goneSince;
  }
}
