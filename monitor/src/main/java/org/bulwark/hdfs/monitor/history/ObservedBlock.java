package org.bulwark.hdfs.monitor.history;

/** One block as a poll saw it: the file holding it and the storages (store ids, sorted) with a replica. */
public final class ObservedBlock {
  final long fileId;
  final String path;
  final int[] storages;
  final boolean corrupt;
  final boolean underConstruction;

  public ObservedBlock(long fileId, String path, int[] storages, boolean corrupt, boolean underConstruction) {
    this.fileId = fileId;
    this.path = path;
    this.storages = storages.clone();
    java.util.Arrays.sort(this.storages);
    this.corrupt = corrupt;
    this.underConstruction = underConstruction;
  }
}
