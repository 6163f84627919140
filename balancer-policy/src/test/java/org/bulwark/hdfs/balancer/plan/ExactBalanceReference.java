package org.bulwark.hdfs.balancer.plan;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.ortools.Loader;
import com.google.ortools.sat.BoolVar;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;

/**
 * The best plan of one balancer iteration, found by an integer program over the same candidate blocks the planner
 * gets, and written from the rules, not from the planner: it shares no code with it but the data types.
 *
 * <p>One binary per (block, source that fetched it, target): a block moves at most once; a source is above the
 * average and gives at most down to it, a target is below it and takes at most up to it (and its remaining space),
 * nobody more than {@code dfs.balancer.max-size-to-move}, except that, as the stock dispatcher moves blocks while a
 * node has room left, a node's last block may cross its room (it ends less than that block past, and not outside the
 * threshold on the other side of the average); an above-average
 * source gives only to an under-utilised
 * target (the stock pairing); no move lowers the block's rack count, and every move passes the NameNode's check.
 * Solved three times by CP-SAT, lexicographically, in bytes: the least left outside the threshold; then, with that,
 * the fewest bytes; then, with those, the most rack-adding moves.
 */
final class ExactBalanceReference {
  private static final double MB = 1 << 20;

  /**
   * What the program is, for {@link RecordedOptima}'s digest: change it whenever the constraints or objectives below
   * change, so that no optimum of the old program is taken for one of the new.
   */
  private static final String FORMULATION = "outside-bytes-adding/last-block-crosses/1";

  /** The optimum: MB left outside the threshold, MB moved, rack-adding moves, and whether the solver proved it. */
  record Optimum(double outsideMb, double movedMb, int adding, boolean proven) {
    static Optimum of(RecordedOptima.Entry e) {
      return new Optimum(e.outsideBytes() / MB, e.movedBytes() / MB, e.adding(), e.proven());
    }
  }

  private record Move(BlockCandidate block, int source, int target, boolean adding) {}

  static {
    Loader.loadNativeLibraries();
  }

  private ExactBalanceReference() {
  }

  /** How far outside the threshold the nodes are after the moves, in MB: over-utilised excess plus under-utilised lack. */
  static double outsideMb(ModelLayout layout, double threshold, List<PlannedMove> moves) {
    long[] used = layout.used.clone();
    for (PlannedMove m : moves) {
      used[m.source()] -= m.block().size();
      used[m.target()] += m.block().size();
    }
    double average = layout.average();
    double outside = 0;
    for (int n = 0; n < used.length; n++) {
      double upper = (average + threshold) / 100 * layout.capacity[n];
      double lower = (average - threshold) / 100 * layout.capacity[n];
      outside += Math.max(0, used[n] - upper) + Math.max(0, lower - used[n]);
    }
    return outside / MB;
  }

  static Optimum solve(ModelLayout layout, double threshold, long maxSizeToMove,
      Map<Integer, List<BlockCandidate>> candidates, MoveCheck check) {
    return solve(layout, threshold, maxSizeToMove, candidates, check, 2);
  }

  /** @param seconds the solver's time limit per stage: past it, the best plan found, not proven optimal */
  static Optimum solve(ModelLayout layout, double threshold, long maxSizeToMove,
      Map<Integer, List<BlockCandidate>> candidates, MoveCheck check, double seconds) {
    return solve(layout, threshold, maxSizeToMove, candidates, check, seconds, true);
  }

  /** @param recorded whether a recorded optimum of the same program is taken instead of solving it */
  static Optimum solve(ModelLayout layout, double threshold, long maxSizeToMove,
      Map<Integer, List<BlockCandidate>> candidates, MoveCheck check, double seconds, boolean recorded) {
    int n = layout.nodes();
    double average = layout.average();
    List<Move> moves = new ArrayList<>();
    Set<BlockCandidate> seen = new HashSet<>();
    for (Map.Entry<Integer, List<BlockCandidate>> e : candidates.entrySet()) {
      int s = e.getKey();
      if (layout.utilisation(s) <= average) {
        continue;
      }
      boolean sourceOver = layout.utilisation(s) - average > threshold;
      for (BlockCandidate b : e.getValue()) {
        seen.add(b);
        for (int t = 0; t < n; t++) {
          if (layout.utilisation(t) >= average || held(b, t)) {
            continue;
          }
          boolean targetUnder = average - layout.utilisation(t) > threshold;
          if (!sourceOver && !targetUnder) {
            continue;
          }
          int before = racks(layout, b.holders(), -1, -1);
          int after = racks(layout, b.holders(), s, t);
          if (after < before || !check.isMovable(b, s, t)) {
            continue;
          }
          moves.add(new Move(b, s, t, after > before));
        }
      }
    }
    String digest = digest(layout, threshold, maxSizeToMove, moves);
    RecordedOptima.Entry entry = recorded ? RecordedOptima.find(digest) : null;
    if (entry != null) {
      return Optimum.of(entry);
    }
    double limit = RecordedOptima.RECORDING ? RecordedOptima.RECORD_SECONDS : seconds;
    Solution outside = optimise(layout, threshold, maxSizeToMove, moves, Stage.OUTSIDE, 0, 0, null, limit);
    Solution bytes = optimise(layout, threshold, maxSizeToMove, moves, Stage.BYTES, outside.value, 0, outside,
        limit);
    Solution adding = optimise(layout, threshold, maxSizeToMove, moves, Stage.ADDING, outside.value, bytes.value,
        bytes, limit);
    RecordedOptima.Entry solved = new RecordedOptima.Entry(outside.value, bytes.value, (int) adding.value,
        outside.proven && bytes.proven && adding.proven);
    if (RecordedOptima.RECORDING && recorded) {
      RecordedOptima.record(digest, solved);
    }
    return Optimum.of(solved);
  }

  /** SHA-256 over everything the program is built from: the formulation, every node's figures, every move. */
  private static String digest(ModelLayout layout, double threshold, long maxSizeToMove, List<Move> moves) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeUTF(FORMULATION);
      out.writeDouble(threshold);
      out.writeLong(maxSizeToMove);
      out.writeInt(layout.nodes());
      for (int v = 0; v < layout.nodes(); v++) {
        out.writeLong(layout.capacity[v]);
        out.writeLong(layout.used[v]);
      }
      out.writeInt(moves.size());
      for (Move m : moves) {
        out.writeInt(m.block.pool());
        out.writeLong(m.block.blockId());
        out.writeLong(m.block.size());
        out.writeInt(m.source);
        out.writeInt(m.target);
        out.writeBoolean(m.adding);
      }
      out.flush();
      return HexFormat.of().formatHex(sha.digest(bytes.toByteArray()));
    } catch (IOException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot digest an integer program", e);
    }
  }

  private enum Stage { OUTSIDE, BYTES, ADDING }

  /** A stage's optimum, whether proven, and its moves (the next stage's hint). */
  private record Solution(long value, boolean proven, boolean[] chosen) {}

  private static Solution optimise(ModelLayout layout, double threshold, long maxSizeToMove, List<Move> moves,
      Stage stage, long outsideBound, long bytesBound, Solution previous, double seconds) {
    int n = layout.nodes();
    double average = layout.average();
    CpModel model = new CpModel();
    List<BoolVar> x = new ArrayList<>();
    for (int i = 0; i < moves.size(); i++) {
      x.add(model.newBoolVar("x" + i));
    }
    // Per node: what it gives or takes (at most its room) and that plus its slack (at least its need), in bytes.
    LinearExprBuilder[] flow = new LinearExprBuilder[n];
    IntVar[] slack = new IntVar[n];
    long[] farSide = new long[n];
    long[] most = new long[n];
    long[] must = new long[n];
    LinearExprBuilder outside = LinearExpr.newBuilder();
    for (int v = 0; v < n; v++) {
      double cap = layout.capacity[v];
      double used = layout.used[v];
      if (layout.utilisation(v) > average) {
        most[v] = (long) Math.floor(Math.min(used - average / 100 * cap, maxSizeToMove));
        must[v] = (long) Math.ceil(used - (average + threshold) / 100 * cap);
      } else if (layout.utilisation(v) < average) {
        most[v] = (long) Math.floor(Math.min(Math.min(average / 100 * cap - used, cap - used), maxSizeToMove));
        must[v] = (long) Math.ceil((average - threshold) / 100 * cap - used);
      }
      flow[v] = LinearExpr.newBuilder();
      slack[v] = model.newIntVar(0, Math.max(0, must[v]), "slack" + v);
      outside.add(slack[v]);
      farSide[v] = (long) Math.floor(Math.abs(used - average / 100 * cap) + threshold / 100 * cap);
    }
    Map<BlockCandidate, LinearExprBuilder> once = new LinkedHashMap<>();
    LinearExprBuilder moved = LinearExpr.newBuilder();
    LinearExprBuilder adding = LinearExpr.newBuilder();
    for (int i = 0; i < moves.size(); i++) {
      Move m = moves.get(i);
      once.computeIfAbsent(m.block, b -> LinearExpr.newBuilder()).add(x.get(i));
      flow[m.source].addTerm(x.get(i), m.block.size());
      flow[m.target].addTerm(x.get(i), m.block.size());
      moved.addTerm(x.get(i), m.block.size());
      if (m.adding) {
        adding.add(x.get(i));
      }
    }
    for (LinearExprBuilder e : once.values()) {
      model.addLessOrEqual(e, 1);
    }
    for (int v = 0; v < n; v++) {
      LinearExpr f = flow[v].build();
      if (most[v] > 0) {
        // The stock dispatcher moves blocks while a node has room: the last may be bigger than the room left.
        List<LinearExpr> sizes = new ArrayList<>();
        long biggest = 0;
        for (int i = 0; i < moves.size(); i++) {
          if (moves.get(i).target == v || moves.get(i).source == v) {
            sizes.add(LinearExpr.term(x.get(i), moves.get(i).block.size()));
            biggest = Math.max(biggest, moves.get(i).block.size());
          }
        }
        IntVar last = model.newIntVar(0, biggest, "last" + v);
        if (!sizes.isEmpty()) {
          model.addMaxEquality(last, sizes);
        }
        model.addLessOrEqual(LinearExpr.newBuilder().add(f).addTerm(last, -1), most[v] - 1);
      } else {
        model.addLessOrEqual(f, Math.max(0, most[v]));
      }
      model.addGreaterOrEqual(LinearExpr.newBuilder().add(f).add(slack[v]), must[v]);
      // A last block that crosses a node's room must not take it outside the threshold on the other side.
      model.addLessOrEqual(f, farSide[v]);
    }
    switch (stage) {
      case OUTSIDE:
        model.minimize(outside);
        break;
      case BYTES:
        model.addLessOrEqual(outside, outsideBound);
        model.minimize(moved);
        break;
      default:
        model.addLessOrEqual(outside, outsideBound);
        model.addLessOrEqual(moved, bytesBound);
        model.maximize(adding);
        break;
    }
    if (previous != null) {
      for (int i = 0; i < moves.size(); i++) {
        model.addHint(x.get(i), previous.chosen[i] ? 1 : 0);
      }
    }
    CpSolver solver = new CpSolver();
    solver.getParameters().setNumWorkers(1).setMaxTimeInSeconds(seconds);
    CpSolverStatus status = solver.solve(model);
    if (status == CpSolverStatus.UNKNOWN) {
      // Out of time before any plan (a loaded host): the last stage's plan meets this stage's bounds; before the
      // first stage, no move at all does. Either is a plan, not an optimum.
      return fallback(stage, previous, moves, must);
    }
    if (status != CpSolverStatus.OPTIMAL && status != CpSolverStatus.FEASIBLE) {
      throw new IllegalStateException("the integer program found no plan at stage " + stage + ": " + status);
    }
    boolean[] chosen = new boolean[moves.size()];
    for (int i = 0; i < moves.size(); i++) {
      chosen[i] = solver.booleanValue(x.get(i));
    }
    return new Solution(Math.round(solver.objectiveValue()), status == CpSolverStatus.OPTIMAL, chosen);
  }

  /** A stage's value for the previous stage's plan (no moves before the first stage), unproven. */
  private static Solution fallback(Stage stage, Solution previous, List<Move> moves, long[] must) {
    boolean[] chosen = previous == null ? new boolean[moves.size()] : previous.chosen;
    long value = 0;
    switch (stage) {
      case OUTSIDE:
        // only reached without a previous stage: nothing moves, every node's need is left
        for (long m : must) {
          value += Math.max(0, m);
        }
        break;
      case BYTES:
        for (int i = 0; i < moves.size(); i++) {
          value += chosen[i] ? moves.get(i).block.size() : 0;
        }
        break;
      default:
        for (int i = 0; i < moves.size(); i++) {
          value += chosen[i] && moves.get(i).adding ? 1 : 0;
        }
        break;
    }
    return new Solution(value, false, chosen);
  }

  private static boolean held(BlockCandidate b, int node) {
    for (int h : b.holders()) {
      if (h == node) {
        return true;
      }
    }
    return false;
  }

  /** Distinct racks of the holders, with {@code from} replaced by {@code to} (none replaced when from is -1). */
  private static int racks(ModelLayout layout, int[] holders, int from, int to) {
    Set<Integer> racks = new HashSet<>();
    for (int h : holders) {
      racks.add(layout.rackOf[h == from ? to : h]);
    }
    return racks.size();
  }
}
