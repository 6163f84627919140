package org.bulwark.hdfs.testkit;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The bytes of a test file, derived from its path alone, so any file can be verified byte for byte
 * after any failure without keeping a copy of what was written.
 */
public final class FileContent {
  private static final int CHUNK = 64 * 1024;

  private FileContent() {
  }

  /** Writes the first {@code length} bytes of the content for {@code path}. */
  public static void write(String path, long length, OutputStream out) throws IOException {
    write(path, 0, length, out);
  }

  /**
   * Writes bytes {@code [offset, offset + length)} of the content for {@code path}: what an append to
   * a file of {@code offset} bytes adds. Every length's content is a prefix of every longer one's.
   */
  public static void write(String path, long offset, long length, OutputStream out) throws IOException {
    Stream s = new Stream(path);
    byte[] buf = new byte[CHUNK];
    long end = offset + length;
    for (long done = 0; done < end; ) {
      int n = (int) Math.min(CHUNK, end - done);
      s.next(buf, n);
      if (done + n > offset) {
        int from = (int) Math.max(0, offset - done);
        out.write(buf, from, n - from);
      }
      done += n;
    }
  }

  /**
   * Reads {@code in} to its end and checks it is exactly the content for {@code path} of {@code length}
   * bytes; returns the number of bytes verified, or throws AssertionError at the first difference.
   */
  public static long verify(String path, long length, InputStream in) throws IOException {
    Stream s = new Stream(path);
    byte[] expected = new byte[CHUNK];
    byte[] actual = new byte[CHUNK];
    long done = 0;
    while (done < length) {
      int n = (int) Math.min(CHUNK, length - done);
      s.next(expected, n);
      readFully(in, actual, n, path, done);
      for (int i = 0; i < n; i++) {
        if (expected[i] != actual[i]) {
          throw new AssertionError(path + ": byte " + (done + i) + " differs from what was written");
        }
      }
      done += n;
    }
    if (in.read() >= 0) {
      throw new AssertionError(path + ": longer than the " + length + " bytes written");
    }
    return done;
  }

  private static void readFully(InputStream in, byte[] buf, int n, String path, long offset) throws IOException {
    for (int off = 0; off < n; ) {
      int r = in.read(buf, off, n - off);
      if (r < 0) {
        throw new EOFException(path + ": ends at byte " + (offset + off) + ", shorter than written");
      }
      off += r;
    }
  }

  /** A pseudo-random byte stream seeded by the path (FNV-1a of its UTF-8 bytes). */
  private static final class Stream {
    private final SplittableRandom random;

    Stream(String path) {
      long h = 0xcbf29ce484222325L;
      for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
        h = (h ^ (b & 0xff)) * 0x100000001b3L;
      }
      random = new SplittableRandom(h);
    }

    void next(byte[] buf, int n) {
      int i = 0;
      while (i + 8 <= n) {
        long v = random.nextLong();
        for (int k = 0; k < 8; k++) {
          buf[i++] = (byte) (v >>> (8 * k));
        }
      }
      if (i < n) {
        long v = random.nextLong();
        for (int k = 0; i < n; k++) {
          buf[i++] = (byte) (v >>> (8 * k));
        }
      }
    }
  }
}
