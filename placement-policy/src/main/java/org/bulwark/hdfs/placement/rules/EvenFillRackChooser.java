package org.bulwark.hdfs.placement.rules;

import java.util.List;
import java.util.Random;
import java.util.function.ToDoubleFunction;

/**
 * Picks the rack for a replica so that racks fill evenly without becoming hot spots: of two racks
 * drawn at random from the candidates, the less utilised one ("power of two choices"). Always picking
 * the emptiest rack would send every concurrent write to the same rack until the next fill refresh;
 * picking uniformly, as the stock rack-fault-tolerant policy does, lets racks drift apart. Two choices
 * keeps the randomness and still pulls utilisation together, in constant time per replica.
 */
public final class EvenFillRackChooser {
  private EvenFillRackChooser() {
  }

  /** The chosen rack among {@code candidates} (not empty), given their fill. */
  public static String choose(List<String> candidates, RackFill fill, Random random) {
    return choose(candidates, fill::utilisation, random);
  }

  /** The chosen one of {@code candidates} (racks or datacenters, not empty), given their utilisation. */
  public static String choose(List<String> candidates, ToDoubleFunction<String> utilisation, Random random) {
    int n = candidates.size();
    if (n == 1) {
      return candidates.get(0);
    }
    int a = random.nextInt(n);
    int b = otherIndex(a, n, random);
    String first = candidates.get(a);
    String second = candidates.get(b);
    double ua = utilisation.applyAsDouble(first);
    double ub = utilisation.applyAsDouble(second);
    if (ua == ub) {
      return first;
    }
    return ua < ub ? first : second;
  }

  /** An index below {@code n} (at least 2) other than {@code a}, uniformly at random: the second choice. */
  public static int otherIndex(int a, int n, Random random) {
    int b = random.nextInt(n - 1);
    return b >= a ? b + 1 : b;
  }
}
