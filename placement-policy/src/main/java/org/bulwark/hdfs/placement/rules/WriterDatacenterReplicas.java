package org.bulwark.hdfs.placement.rules;

/**
 * How many of a block's replicas hierarchical placement keeps in the writer's datacenter (the first
 * replica's). With two or more datacenters both survive the loss of any one datacenter; they differ in
 * what is left and where reads are served from.
 */
public enum WriterDatacenterReplicas {
  /**
   * One replica in the writer's datacenter, the rest remote (two of them on two racks of one remote
   * datacenter): losing the writer's datacenter leaves RF-1 replicas on two or more racks.
   */
  ONE,
  /**
   * ceil(RF/2) replicas in the writer's datacenter on distinct racks, the rest remote (HDFS-17868's
   * split): more reads stay local and a rack loss at the writer is repaired from its own datacenter;
   * losing the writer's datacenter leaves floor(RF/2) replicas (one at RF 3).
   */
  HALF;

  /** Replicas the writer's datacenter holds of a block of {@code replicas} replicas. */
  public int count(int replicas) {
    return this == ONE ? Math.min(1, replicas) : (replicas + 1) / 2;
  }
}
