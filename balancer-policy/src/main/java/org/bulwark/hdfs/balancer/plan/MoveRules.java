package org.bulwark.hdfs.balancer.plan;

/**
 * Whether one move may be made: the stock pairing (an above-average source only into an under-utilised target, an
 * over-utilised one into any target below the average), the policy's rule that no block loses a rack, and the
 * NameNode's placement check.
 */
final class MoveRules {
  private final RackSpread racks;
  private final MoveCheck check;
  private final boolean[] over;
  private final boolean[] under;

  MoveRules(RackSpread racks, MoveCheck check, boolean[] over, boolean[] under) {
    this.racks = racks;
    this.check = check;
    this.over = over;
    this.under = under;
  }

  boolean allowed(BlockCandidate b, int source, int target) {
    return target != source && !b.isHeldBy(target) && (over[source] || under[target])
        && racks.delta(b.holders(), source, target) >= 0 && check.isMovable(b, source, target);
  }

  PlannedMove move(BlockCandidate b, int source, int target) {
    return new PlannedMove(b, source, target, racks.delta(b.holders(), source, target));
  }
}
