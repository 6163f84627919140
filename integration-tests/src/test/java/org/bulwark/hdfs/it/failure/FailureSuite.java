package org.bulwark.hdfs.it.failure;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 7's failure suite, scenarios 1 to 6, in two halves ({@link DataFailuresIT}, {@link ControlFailuresIT})
 * that each run their scenarios one after another on one {@link AllPluginsCluster} that lives through all of
 * them, as a production cluster would, each run by {@link ScenarioRunner}: under the steady
 * {@link MixedWorkload}, then audited (every file read back, fsck, the monitor compared with the NameNodes).
 * Each scenario's report is printed and kept in {@code target/failure-suite.txt}. (Scenario 7 needs a cluster
 * that starts on the default policy: {@link PlacementSwitchIT}.)
 *
 * <p>Two halves, two clusters: they run in test JVMs side by side, and each audit reads back half the files
 * one cluster would have gathered (243 s as one class, the module's long pole).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class FailureSuite {
  static final Duration WAIT = Duration.ofMinutes(3);

  AllPluginsCluster c;
  ScenarioRunner scenarios;
  Faults faults;

  @BeforeAll
  void start() throws Exception {
    c = AllPluginsCluster.start();
    scenarios = new ScenarioRunner(c);
    faults = new Faults(c, new Random(7));
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (scenarios != null) {
        scenarios.close();
      }
    } finally {
      if (c != null) {
        c.close();
      }
    }
  }
}
