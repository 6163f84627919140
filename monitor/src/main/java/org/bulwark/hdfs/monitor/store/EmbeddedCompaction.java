package org.bulwark.hdfs.monitor.store;

import java.io.File;

/**
 * When the embedded H2 file is compacted. H2's MVStore appends the pages of every commit and reuses the
 * space of superseded pages only once its retention time (45 s) has passed and its background writer
 * has time for it, which a store written every poll (and with every commit on disk at once) rarely
 * gives: measured, 1.5 million replica intervals written in 5 commits filled 1.2 KB per row, of which
 * 38 bytes were live. {@code SHUTDOWN COMPACT} rewrites the file to its live pages. It is due when the
 * file has grown to {@link #GROWTH} times its size after the last compaction (or at start), and is
 * at least {@link #MIN_BYTES}: so its cost, proportional to the live data, is paid once per doubling.
 */
final class EmbeddedCompaction {
  static final int GROWTH = 2;
  static final long MIN_BYTES = 64L << 20;

  private final File file;
  private long baseline;

  /** @param file the store's {@code .mv.db} file */
  EmbeddedCompaction(File file) {
    this.file = file;
    this.baseline = file.length();
  }

  File file() {
    return file;
  }

  /** Whether the file has grown enough since the last compaction to be compacted now. */
  boolean due() {
    long size = file.length();
    return size >= MIN_BYTES && size >= GROWTH * baseline;
  }

  /** Records the size the file has after a compaction. */
  void compacted() {
    baseline = file.length();
  }
}
