package org.bulwark.hdfs.placement.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ReplicaReachTest {
  private static final Set<String> ANYWHERE = null;

  @Test
  void replicasThatFitAnywhereSpanAsManyPlacesAsExist() {
    assertEquals(3, ReplicaReach.maxDistinctPlaces(Arrays.asList(ANYWHERE, ANYWHERE, ANYWHERE), 0, 10));
    assertEquals(2, ReplicaReach.maxDistinctPlaces(Arrays.asList(ANYWHERE, ANYWHERE, ANYWHERE), 0, 2));
    assertEquals(3, ReplicaReach.maxDistinctPlaces(Collections.<Set<String>>emptyList(), 3, 10), "none placed yet");
  }

  @Test
  void confinedReplicasSpanOnlyThePlacesOfferingTheirType() {
    Set<String> archive = Set.of("/r1", "/r2");
    assertEquals(2, ReplicaReach.maxDistinctPlaces(List.of(archive, archive, archive), 0, 40), "COLD on two archive racks");
    assertEquals(2, ReplicaReach.maxDistinctPlaces(Arrays.asList(ANYWHERE, Set.of("/r1"), Set.of("/r1")), 0, 40),
        "WARM: the DISK replica anywhere, both ARCHIVE replicas on the one archive rack");
    assertEquals(1, ReplicaReach.maxDistinctPlaces(List.of(Set.of("/r1"), Set.of("/r1")), 0, 40));
    assertEquals(3, ReplicaReach.maxDistinctPlaces(List.of(Set.of("/r1"), Set.of("/r1")), 2, 3),
        "unplaced replicas take the places the confined ones leave, up to the places in service");
  }

  @Test
  void aReplicaMovesAsideWhenAnotherHasNoOtherPlace() {
    // The first replica takes /r1; the second fits only there, so the first must move to /r2.
    assertEquals(2, ReplicaReach.maxDistinctPlaces(List.of(Set.of("/r1", "/r2"), Set.of("/r1")), 0, 5));
    assertEquals(3, ReplicaReach.maxDistinctPlaces(
        List.of(Set.of("/a", "/b"), Set.of("/a", "/c"), Set.of("/a")), 0, 5));
  }

  @Test
  void aReplicaWhoseTypeNoPlaceInServiceOffersAddsNoPlace() {
    assertEquals(1, ReplicaReach.maxDistinctPlaces(List.of(Set.<String>of(), Set.of("/r1")), 0, 5));
  }
}
