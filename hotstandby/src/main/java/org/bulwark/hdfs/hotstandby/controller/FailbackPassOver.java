package org.bulwark.hdfs.hotstandby.controller;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The higher-priority NameNodes fail-back passes over after an operator's failover made this NameNode leader: those
 * that stood as candidates then, or it would undo the operator's choice. A candidacy is made anew whenever its
 * controller's ZooKeeper session is replaced (ZooKeeper out of reach for longer than the session timeout, a restarted
 * controller) or it withdraws over a health blip, so standing anew says nothing of a failure. One is failed back to only
 * once this controller has seen it gone from the candidates for a whole session timeout (its NameNode failed or
 * stopped); then, standing again, it is treated as any other candidate. Kept by the loop's thread; times are monotonic.
 */
final class FailbackPassOver {
  private final long absenceMillis;
  /** Each NameNode passed over, with since when this controller has seen it absent; null while it stands. */
  private final Map<String, Long> absentSince = new HashMap<>();

  FailbackPassOver(long sessionTimeoutMillis) {
    this.absenceMillis = sessionTimeoutMillis;
  }

  /** This controller took the leadership: on an operator's request ({@code requested}), while {@code standing} stood. */
  void tookOver(boolean requested, String me, int myPriority, Collection<Candidate> standing) {
    absentSince.clear();
    if (requested) {
      for (Candidate c : standing) {
        if (!c.nameNodeId().equals(me) && c.priority() > myPriority) {
          absentSince.put(c.nameNodeId(), null);
        }
      }
    }
  }

  /** ZooKeeper out of reach: no absence was seen throughout, so each counts afresh from the next sighting. */
  void lostSight() {
    absentSince.replaceAll((nn, since) -> null);
  }

  /** Notes which of them stand at {@code now}; returns those fail-back still passes over. */
  Set<String> passedOver(Collection<Candidate> standing, long now) {
    Set<String> present = new HashSet<>();
    for (Candidate c : standing) {
      present.add(c.nameNodeId());
    }
    for (Iterator<Map.Entry<String, Long>> it = absentSince.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Long> e = it.next();
      if (present.contains(e.getKey())) {
        e.setValue(null);
      } else if (e.getValue() == null) {
        e.setValue(now);
      } else if (now - e.getValue() >= absenceMillis) {
        it.remove();
      }
    }
    return Collections.unmodifiableSet(new HashSet<>(absentSince.keySet()));
  }
}
