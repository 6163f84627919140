package org.bulwark.hdfs.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class FileContentTest {

  private static byte[] content(String path, int length) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FileContent.write(path, length, out);
    return out.toByteArray();
  }

  @Test
  void contentDependsOnlyOnThePath() throws Exception {
    byte[] a = content("/data/f1", 200_003);
    assertEquals(200_003, a.length);
    assertArrayEquals(a, content("/data/f1", 200_003));
    assertArrayEquals(Arrays.copyOf(a, 1000), content("/data/f1", 1000), "a prefix is the shorter file");
    assertFalse(Arrays.equals(a, content("/data/f2", 200_003)));
  }

  @Test
  void verifyAcceptsTheContentAndRejectsAnyChange() throws Exception {
    byte[] a = content("/f", 70_000);
    assertEquals(70_000, FileContent.verify("/f", 70_000, new ByteArrayInputStream(a)));

    byte[] flipped = a.clone();
    flipped[65_537] ^= 1;
    AssertionError e = assertThrows(AssertionError.class,
        () -> FileContent.verify("/f", 70_000, new ByteArrayInputStream(flipped)));
    assertTrue(e.getMessage().contains("byte 65537"), e.getMessage());

    assertThrows(EOFException.class,
        () -> FileContent.verify("/f", 70_000, new ByteArrayInputStream(Arrays.copyOf(a, 69_999))));
    assertThrows(AssertionError.class,
        () -> FileContent.verify("/f", 69_999, new ByteArrayInputStream(a)));
  }

  @Test
  void appendedRangesContinueTheContent() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FileContent.write("/appended", 0, 70_001, out);
    FileContent.write("/appended", 70_001, 3, out);
    FileContent.write("/appended", 70_004, 131_075, out);
    assertArrayEquals(content("/appended", 201_079), out.toByteArray(), "three appends make the one long file");
  }
}
