package org.bulwark.hdfs.hotstandby.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.util.VersionInfo;
import org.bulwark.hdfs.testkit.Await;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The warm-up list loads on the Hadoop line under test, and the plugin starts inside a real NameNode. */
@Tag("compat")
class ActiveStateWarmupIT {
  @Test
  void theRecordedListLoadsOnThisHadoopLine() throws Exception {
    List<String> names = ActiveStateWarmup.classList();
    assertTrue(names.size() > 400, "recorded from a transition: " + names.size());
    assertTrue(names.stream().allMatch(n -> n.startsWith("org.apache.hadoop.")), "Hadoop's classes only");
    ClassPreloader.Result r = ClassPreloader.load(names, getClass().getClassLoader());
    System.out.println("Hadoop " + VersionInfo.getVersion() + ": " + r);
    assertEquals(names.size(), r.loaded + r.missing);
    if (VersionInfo.getVersion().startsWith("3.4.")) {
      assertEquals(0, r.missing, "recorded on 3.4.3: " + r);
    } else {
      assertTrue(r.missing * 10 <= r.listed, "most of the list exists on every line: " + r);
    }
  }

  @Test
  void protocolBuffersAreRecognisedAndUnknownNamesAreSkipped() throws Exception {
    assertTrue(ClassPreloader.isProtocolBuffer("org.apache.hadoop.hdfs.protocol.proto.HdfsProtos$BlockProto"));
    assertTrue(ClassPreloader.isProtocolBuffer("org.apache.hadoop.hdfs.qjournal.protocol.QJournalProtocolProtos"));
    assertFalse(ClassPreloader.isProtocolBuffer("org.apache.hadoop.hdfs.server.namenode.LeaseManager$Monitor"));
    List<String> names = ClassPreloader.readNames(new ByteArrayInputStream(
        "# a comment\n\norg.apache.hadoop.hdfs.server.namenode.LeaseManager$Monitor\norg.example.Nothing\n"
            .getBytes(StandardCharsets.UTF_8)));
    assertEquals(Arrays.asList("org.apache.hadoop.hdfs.server.namenode.LeaseManager$Monitor", "org.example.Nothing"), names);
    ClassPreloader.Result r = ClassPreloader.load(names, getClass().getClassLoader());
    assertEquals(1, r.loaded);
    assertEquals(1, r.missing);
  }

  @Test
  void onlyTheClassesMeantToBeInitialisedRunTheirStaticInitialiser() {
    String name = InitialisedOnRequest.class.getName();
    ClassLoader loader = getClass().getClassLoader();
    ClassPreloader.load(Arrays.asList(name), loader, n -> false);
    assertFalse(initialiserRan, "loaded, not initialised");
    ClassPreloader.load(Arrays.asList(name), loader, name::equals);
    assertTrue(initialiserRan, "initialised when asked");

    assertTrue(ClassPreloader.initialises("org.apache.hadoop.hdfs.server.namenode.EditLogFileOutputStream"));
    assertTrue(ClassPreloader.initialises("org.apache.hadoop.hdfs.protocol.proto.HdfsProtos$BlockProto"));
    assertFalse(ClassPreloader.initialises("org.apache.hadoop.hdfs.server.namenode.LeaseManager$Monitor"));
  }

  @Test
  void everyPureCostlyInitialiserIsOnTheRecordedList() throws Exception {
    assertTrue(ActiveStateWarmup.classList().containsAll(ClassPreloader.PURE_COSTLY_INITIALISERS));
  }

  @Test
  void configurationReloadsParseAsOftenAsAskedAndStopWhenInterrupted() {
    assertEquals(3, ConfigurationReloads.run(3));
    Thread.currentThread().interrupt();
    try {
      assertEquals(0, ConfigurationReloads.run(3), "an interrupted warm-up stops");
    } finally {
      assertTrue(Thread.interrupted(), "the interrupt is left for the caller");
    }
  }

  /** Set by {@link InitialisedOnRequest}'s static initialiser (a field of its own would initialise it when read). */
  private static volatile boolean initialiserRan;

  /** Stands for a class whose static initialiser the warm-up must run only when told to. */
  static final class InitialisedOnRequest {
    static {
      initialiserRan = true;
    }
  }

  @Test
  void aNameNodeStartsWithThePluginConfiguredAndAWarmUpRunsToItsEnd() throws Exception {
    HdfsConfiguration conf = new HdfsConfiguration();
    conf.set("dfs.namenode.plugins", ActiveStateWarmup.class.getName());
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build()) {
      cluster.waitActive();
      ActiveStateWarmup standalone = new ActiveStateWarmup();
      standalone.start(cluster.getNameNode());
      ClassPreloader.Result r = standalone.awaitResult(60_000);
      standalone.close();
      assertNotNull(r, "the warm-up finished");
      assertTrue(r.loaded > 0, r.toString());
    }
  }

  @Test
  void aWarmUpOfAnHaNameNodeEndsWithOneClientCallToIt() throws Exception {
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(new HdfsConfiguration())
        .nnTopology(MiniDFSNNTopology.simpleHATopology()).numDataNodes(0).build()) {
      cluster.waitActive();
      int port = cluster.getNameNode(0).getNameNodeAddress().getPort();
      assertEquals(0, ClientProtocolPrimerIT.calls(port), "no getHAServiceState call before the warm-up");
      ActiveStateWarmup warmup = new ActiveStateWarmup();
      warmup.start(cluster.getNameNode(0));
      assertNotNull(warmup.awaitResult(60_000), "the warm-up finished");
      warmup.close();
      // The server counts a call once it has answered it.
      Await.until("the warm-up's call counted", Duration.ofSeconds(30), () -> ClientProtocolPrimerIT.calls(port) == 1);
    }
  }
}
