package org.bulwark.hdfs.monitor.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ErasureCodingLayoutTest {
  private static final long MB = 1024 * 1024;

  @Test
  void rawBytesFollowHdfsStripedLayout() {
    ErasureCodingLayout rs63 = ErasureCodingLayout.RS_6_3;
    assertEquals(0, rs63.rawBytes(0));
    // A 100 KB file: one partial cell plus 3 parity cells of the same size: 4x.
    assertEquals(4 * 100_000, rs63.rawBytes(100_000));
    // 1.5 cells: parity takes 3 full cells.
    assertEquals(MB + MB / 2 + 3 * MB, rs63.rawBytes(MB + MB / 2));
    // Exactly one stripe (6 MiB): 9 MiB raw, 1.5x.
    assertEquals(9 * MB, rs63.rawBytes(6 * MB));
    // One stripe and 10 bytes.
    assertEquals(6 * MB + 10 + 3 * MB + 3 * 10, rs63.rawBytes(6 * MB + 10));
    // A large file tends to (k+m)/k.
    assertEquals(1.5, (double) rs63.rawBytes(600 * MB) / (600 * MB), 1e-9);
    assertEquals(1.4, (double) ErasureCodingLayout.RS_10_4.rawBytes(1000 * MB) / (1000 * MB), 1e-9);
    assertEquals(1.5, (double) ErasureCodingLayout.XOR_2_1.rawBytes(200 * MB) / (200 * MB), 1e-9);
    assertEquals(5.0 / 3, (double) ErasureCodingLayout.RS_3_2.rawBytes(300 * MB) / (300 * MB), 1e-9);
  }

  @Test
  void racksNeededForRackFaultTolerance() {
    assertEquals(3, ErasureCodingLayout.RS_6_3.racksToSurviveOneRack());
    assertEquals(9, ErasureCodingLayout.RS_6_3.racksForOneCellPerRack());
    assertEquals(3, ErasureCodingLayout.RS_3_2.racksToSurviveOneRack());
    assertEquals(4, ErasureCodingLayout.RS_10_4.racksToSurviveOneRack());
    assertEquals(3, ErasureCodingLayout.XOR_2_1.racksToSurviveOneRack());
  }

  @Test
  void advisorSumsDirectoriesAndCountsSmallFilesThatCostMore() {
    StorageCostAdvisor advisor = new StorageCostAdvisor(2, ErasureCodingLayout.BUILT_IN);
    advisor.addFile("/logs/2026/small.log", 100_000, 300_000);
    advisor.addFile("/warehouse/t1/part-0", 600 * MB, 1800 * MB);
    DirectoryCost logs = advisor.byPath().stream().filter(d -> d.path().equals("/logs")).findFirst().orElseThrow();
    assertEquals(1, logs.files());
    assertEquals(400_000, logs.rawBytes("RS-6-3-1024k"));
    assertEquals(1, logs.filesCostlier("RS-6-3-1024k"));
    assertEquals(-100_000, logs.savedBytes("RS-6-3-1024k"));
    assertEquals("/warehouse", advisor.byBestSaving().get(0).path(), "the big files save most; /logs loses");
    assertEquals("/logs/2026", advisor.byBestSaving().get(4).path());
    DirectoryCost root = advisor.byPath().get(0);
    assertEquals("/", root.path());
    assertEquals(2, root.files());
    assertEquals(5, advisor.byPath().size(), "/, /logs, /logs/2026, /warehouse, /warehouse/t1");
  }

  @Test
  void recommendsOnlyWhatVerifyClusterSetupWouldAcceptAndWhatSaves() {
    StorageCostAdvisor advisor = new StorageCostAdvisor(1, ErasureCodingLayout.BUILT_IN);
    advisor.addFile("/warehouse/part-0", 600 * MB, 1800 * MB);
    advisor.addFile("/logs/small.log", 100_000, 300_000);
    DirectoryCost warehouse = advisor.byPath().stream().filter(d -> d.path().equals("/warehouse")).findFirst().orElseThrow();
    DirectoryCost logs = advisor.byPath().stream().filter(d -> d.path().equals("/logs")).findFirst().orElseThrow();
    assertEquals("the DataNodes are not known yet", advisor.whyNot(ErasureCodingLayout.RS_3_2));
    assertEquals(null, advisor.recommended(warehouse), "no DataNode report, no advice");

    advisor.topology(5, 5);
    assertEquals("needs 9 DataNodes, the cluster has 5", advisor.whyNot(ErasureCodingLayout.RS_6_3));
    assertEquals(null, advisor.whyNot(ErasureCodingLayout.RS_3_2));
    assertEquals("RS-3-2-1024k", advisor.recommended(warehouse).name(),
        "XOR-2-1 would save more (1.5x raw against 1.67x) but survives one lost unit, three replicas two");
    assertEquals(null, advisor.recommended(logs), "every policy costs a 100 KB file more than 3 replicas");

    advisor.topology(12, 2);
    assertEquals("needs 3 racks to survive the loss of one, the cluster has 2", advisor.whyNot(ErasureCodingLayout.RS_6_3));
    assertEquals(null, advisor.recommended(warehouse), "two racks hold no policy");
    advisor.topology(20, 4);
    assertEquals("RS-10-4-1024k", advisor.recommended(warehouse).name());
  }
}
