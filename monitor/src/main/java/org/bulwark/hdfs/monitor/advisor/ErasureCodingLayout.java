package org.bulwark.hdfs.monitor.advisor;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One of HDFS's built-in erasure-coding policies, and what a file costs under it. HDFS writes a file
 * in stripes of {@code k} data cells of {@code cellSize} bytes plus {@code m} parity cells; the last,
 * partial stripe still gets {@code m} parity cells as large as its first (largest) data cell. So a file
 * of S bytes takes {@code S + m * (c * floor(S / (k*c)) + min(S mod (k*c), c))} raw bytes: a 100 KB
 * file under RS-6-3 with 1 MiB cells costs 4x its size, more than three replicas.
 */
public final class ErasureCodingLayout {
  public static final ErasureCodingLayout RS_6_3 = new ErasureCodingLayout("RS-6-3-1024k", 6, 3, 1024 * 1024);
  public static final ErasureCodingLayout RS_3_2 = new ErasureCodingLayout("RS-3-2-1024k", 3, 2, 1024 * 1024);
  public static final ErasureCodingLayout RS_10_4 = new ErasureCodingLayout("RS-10-4-1024k", 10, 4, 1024 * 1024);
  public static final ErasureCodingLayout XOR_2_1 = new ErasureCodingLayout("XOR-2-1-1024k", 2, 1, 1024 * 1024);

  /** The policies the advisor compares, in the order it shows them. */
  public static final List<ErasureCodingLayout> BUILT_IN =
      Collections.unmodifiableList(Arrays.asList(RS_6_3, RS_3_2, RS_10_4, XOR_2_1));

  private final String name;
  private final int dataUnits;
  private final int parityUnits;
  private final long cellSize;

  public ErasureCodingLayout(String name, int dataUnits, int parityUnits, long cellSize) {
    if (dataUnits < 1 || parityUnits < 1 || cellSize < 1) {
      throw new IllegalArgumentException(name + ": data units, parity units and cell size must be positive");
    }
    this.name = name;
    this.dataUnits = dataUnits;
    this.parityUnits = parityUnits;
    this.cellSize = cellSize;
  }

  public String name() {
    return name;
  }

  public int dataUnits() {
    return dataUnits;
  }

  public int parityUnits() {
    return parityUnits;
  }

  public long cellSize() {
    return cellSize;
  }

  /** Raw bytes (data plus parity) a file of {@code size} bytes occupies under this policy. */
  public long rawBytes(long size) {
    if (size < 0) {
      throw new IllegalArgumentException("file size " + size + " is negative");
    }
    long stripe = dataUnits * cellSize;
    long fullStripes = size / stripe;
    long rest = size % stripe;
    return size + parityUnits * (cellSize * fullStripes + Math.min(rest, cellSize));
  }

  /**
   * Racks a block group needs so that losing any one rack loses no data: each rack may hold at most
   * {@code m} of the {@code k+m} cells, so {@code ceil((k+m)/m)}.
   */
  public int racksToSurviveOneRack() {
    return (dataUnits + parityUnits + parityUnits - 1) / parityUnits;
  }

  /** Racks for one cell per rack ({@code k+m}): the layout HDFS's rack-fault-tolerant policy aims at. */
  public int racksForOneCellPerRack() {
    return dataUnits + parityUnits;
  }

  @Override
  public String toString() {
    return name;
  }
}
