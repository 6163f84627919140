package org.bulwark.hdfs.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.junit.jupiter.api.Test;

/** The snapshot's walk over a topology that changes under it (Hadoop walks it without its lock). */
class TopologySnapshotTest {

  /** A topology whose walk fails, as a rack's child list shrinking under it does, a given number of times. */
  private static final class ChangingTopology extends NetworkTopology {
    int failuresLeft;

    ChangingTopology(int racks) {
      for (int i = 0; i < racks; i++) {
        add(DFSTestUtil.createDatanodeStorageInfo("s" + i, "10.0.0." + (i + 1), "/r" + i, "h" + i, StorageType.DISK, null)
            .getDatanodeDescriptor());
      }
    }

    @Override
    public List<Node> getLeaves(String scope) {
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new IndexOutOfBoundsException("Index 3 out of bounds for length 3");
      }
      return super.getLeaves(scope);
    }
  }

  @Test
  void aWalkThatFailsIsTriedAgain() {
    ChangingTopology topology = new ChangingTopology(4);
    topology.failuresLeft = 3;
    assertEquals(4, TopologySnapshot.of(topology).fill.racks().size());
  }

  @Test
  void aTopologyThatKeepsChangingLeavesThePreviousSnapshotInUse() {
    ChangingTopology topology = new ChangingTopology(4);
    RackFillTracker tracker = new RackFillTracker(0);
    TopologySnapshot first = tracker.get(topology);
    topology.failuresLeft = Integer.MAX_VALUE;
    assertSame(first, tracker.get(topology), "a placement decides on the previous snapshot rather than fail the write");
    RackFillTracker fresh = new RackFillTracker(0);
    assertThrows(IndexOutOfBoundsException.class, () -> fresh.get(topology), "no snapshot to fall back on");
  }
}
