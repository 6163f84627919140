package org.bulwark.hdfs.monitor.health;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one round saw of one namespace, before any judgement: the probe fills it, {@link HealthRules}
 * judges it. A part that could not be measured keeps its error instead of its figures.
 */
public final class NamespaceFacts {
  public final String namespace;

  /** Canary: disabled, passed in {@link #canaryMillis}, or failed with {@link #canaryError}. */
  boolean canaryDisabled;
  long canaryMillis = -1;
  String canaryError;

  /** Block counts as the NameNode reports them; {@link #blocksError} when it did not answer. */
  long missingBlocks = -1;
  long corruptBlocks = -1;
  /** Every block of the namespace, as the monitor's last complete poll counted them; -1: no poll yet. */
  long totalBlocks = -1;
  String blocksError;

  /** DataNodes as the NameNode reports them; {@link #dataNodesError} when it did not answer. */
  int liveDataNodes = -1;
  int deadDataNodes = -1;
  int staleDataNodes = -1;
  String dataNodesError;

  /** Each NameNode of the namespace (id or address) and its HA state, or why it could not tell. */
  final Map<String, String> nameNodeStates = new LinkedHashMap<>();
  /** How long this namespace has had no active NameNode (0 while it has one). */
  long withoutActiveMillis;

  public NamespaceFacts(String namespace) {
    this.namespace = namespace;
  }

  public NamespaceFacts canaryPassed(long millis) {
    canaryMillis = millis;
    return this;
  }

  public NamespaceFacts canaryFailed(String error) {
    canaryError = error;
    return this;
  }

  public NamespaceFacts canaryDisabled() {
    canaryDisabled = true;
    return this;
  }

  public NamespaceFacts blocks(long missing, long corrupt, long total) {
    missingBlocks = missing;
    corruptBlocks = corrupt;
    totalBlocks = total;
    return this;
  }

  public NamespaceFacts blocksUnknown(String error) {
    blocksError = error;
    return this;
  }

  public NamespaceFacts dataNodes(int live, int dead, int stale) {
    liveDataNodes = live;
    deadDataNodes = dead;
    staleDataNodes = stale;
    return this;
  }

  public NamespaceFacts dataNodesUnknown(String error) {
    dataNodesError = error;
    return this;
  }

  public NamespaceFacts nameNode(String id, String state) {
    nameNodeStates.put(id, state);
    return this;
  }

  public NamespaceFacts withoutActiveFor(long millis) {
    withoutActiveMillis = millis;
    return this;
  }

  /** The NameNode that reported itself active, or null. */
  public String activeNameNode() {
    for (Map.Entry<String, String> e : nameNodeStates.entrySet()) {
      if ("active".equals(e.getValue())) {
        return e.getKey();
      }
    }
    return null;
  }

  public Map<String, String> nameNodeStates() {
    return Collections.unmodifiableMap(nameNodeStates);
  }
}
