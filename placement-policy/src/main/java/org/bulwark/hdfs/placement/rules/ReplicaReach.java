package org.bulwark.hdfs.placement.rules;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The most distinct places (racks, or datacenters) a block's replicas can span when some replicas can sit
 * only in some places. Why: a storage policy confines its replicas to the DataNodes with its storage type
 * (COLD to ARCHIVE volumes, say, on two racks of forty); a block asked to span more places than that is
 * reported mis-replicated for good, and the NameNode retries a repair it can never make.
 */
public final class ReplicaReach {
  private ReplicaReach() {
  }

  /**
   * The largest number of distinct places the replicas can occupy, one replica per place: a maximum
   * matching of replicas to places.
   *
   * @param options for each placed replica, the places it could sit in; {@code null} when any place would do
   * @param unplaced replicas not placed yet, which could sit anywhere
   * @param places the number of places in service
   */
  public static int maxDistinctPlaces(List<Set<String>> options, int unplaced, int places) {
    int anywhere = Math.max(0, unplaced);
    Map<String, Integer> holderOfPlace = new HashMap<>();
    int matched = 0;
    for (int i = 0; i < options.size(); i++) {
      Set<String> own = options.get(i);
      if (own == null) {
        anywhere++;
      } else if (augment(i, options, holderOfPlace, new HashMap<String, Boolean>())) {
        matched++;
      }
    }
    // Replicas that fit anywhere take the places the constrained ones left: no better split exists,
    // as the constrained ones can never span more than their maximum matching.
    return Math.min(places, matched + anywhere);
  }

  /** Kuhn's augmenting path from replica {@code i}: whether it found a place, moving others if need be. */
  private static boolean augment(int i, List<Set<String>> options, Map<String, Integer> holderOfPlace,
      Map<String, Boolean> visited) {
    for (String place : options.get(i)) {
      if (visited.put(place, Boolean.TRUE) != null) {
        continue;
      }
      Integer holder = holderOfPlace.get(place);
      if (holder == null || augment(holder, options, holderOfPlace, visited)) {
        holderOfPlace.put(place, i);
        return true;
      }
    }
    return false;
  }
}
