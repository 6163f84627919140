package org.bulwark.hdfs.it.failure;

/** A fault injected into the all-plugins cluster, undone by {@link #heal()}. */
interface Fault {
  String name();

  /** Undoes the fault (restarts what was stopped, reruns what was killed). */
  void heal() throws Exception;
}
