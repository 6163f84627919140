package org.bulwark.hdfs.monitor.history;

import java.util.Arrays;

/** One block as a poll saw it: the file holding it and the storages (store ids, sorted) with a replica. */
public final class ObservedBlock {
  final long fileId;
  final String path;
  final int[] storages;
  final boolean corrupt;
  final boolean underConstruction;
  /** Distinct copies found: replicas, or for an erasure-coded group its distinct internal blocks. */
  private final int distinctCopies;
  /** Copies needed to read it: 1 replica, or as many internal blocks as the group has data blocks. */
  private final int copiesToRead;

  /** A replicated block. */
  public ObservedBlock(long fileId, String path, int[] storages, boolean corrupt, boolean underConstruction) {
    this(fileId, path, storages, storages.length, 1, corrupt, underConstruction);
  }

  /**
   * A block of either kind.
   *
   * @param distinctCopies replicas, or an erasure-coded group's distinct internal blocks (a group may hold
   *     one internal block twice, which does not help to read it)
   * @param copiesToRead 1 for a replicated block; for a group, its data blocks (fewer than the policy's data
   *     units when the group holds less than a full stripe)
   */
  public ObservedBlock(long fileId, String path, int[] storages, int distinctCopies, int copiesToRead, boolean corrupt,
      boolean underConstruction) {
    this.fileId = fileId;
    this.path = path;
    this.storages = storages.clone();
    Arrays.sort(this.storages);
    this.distinctCopies = distinctCopies;
    this.copiesToRead = copiesToRead;
    this.corrupt = corrupt;
    this.underConstruction = underConstruction;
  }

  /**
   * Whether no client can read it: fewer copies than it takes. An erasure-coded group with some internal
   * blocks left but fewer than its data blocks is as lost as a block with no replica (the NameNode counts
   * it missing too). The last block of a file being written may have none yet.
   */
  public boolean missing() {
    return !underConstruction && distinctCopies < copiesToRead;
  }
}
