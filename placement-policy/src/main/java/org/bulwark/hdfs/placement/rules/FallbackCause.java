package org.bulwark.hdfs.placement.rules;

import java.util.Locale;

/**
 * Why a block could not be placed as the policy's rules want (and was placed as well as the cluster
 * allowed instead). Operators act on the cause: a rack of full disks wants capacity, a decommissioning
 * rack wants patience, a storage policy naming a type no rack has wants a storage policy change.
 */
public enum FallbackCause {
  /** Every rack the rules allow already holds its share of the block (too few racks in service). */
  NO_RACK_LEFT,
  /** The datacenter rule could not be met: a datacenter the rule wanted had no rack able to take a replica. */
  DATACENTER,
  /** The nodes of the wanted racks lack room for the block. */
  SPACE,
  /** The nodes of the wanted racks have no storage of the type the file's storage policy asks for. */
  STORAGE_TYPE,
  /** The writer excluded the nodes of the wanted racks (pipeline recovery, bad nodes). */
  EXCLUDED,
  /** The nodes of the wanted racks are decommissioning or entering maintenance. */
  DECOMMISSIONING,
  /** The nodes of the wanted racks missed heartbeats (stale) while stale nodes are avoided for writes. */
  STALE,
  /** The nodes of the wanted racks serve more transfers than the load check allows. */
  LOAD,
  /** The nodes of the wanted racks are reported slow while slow nodes are excluded. */
  SLOW;

  /** The cause as metrics and logs name it: {@code NoRackLeft}, {@code StorageType}, ... */
  public String metricName() {
    StringBuilder out = new StringBuilder();
    for (String word : name().split("_")) {
      out.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
    }
    return out.toString();
  }

  /** The cause in words, for a log line. */
  public String words() {
    return name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
