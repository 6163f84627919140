package org.bulwark.hdfs.it.failure;

/** A fault injected into the all-plugins cluster, undone by {@link #heal()}. */
interface Fault {
  String name();

  /** Undoes the fault (restarts what was stopped, reruns what was killed). */
  void heal() throws Exception;

  /**
   * Undoes whatever of the fault is still in place, after a scenario failed part-way (its own
   * {@link #heal()} may or may not have run): the next scenario starts on a whole cluster.
   */
  default void healIfStillBroken() throws Exception {
    heal();
  }
}
