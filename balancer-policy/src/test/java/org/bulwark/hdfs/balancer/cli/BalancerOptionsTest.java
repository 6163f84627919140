package org.bulwark.hdfs.balancer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.balancer.exec.BalancerSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BalancerOptionsTest {
  @TempDir
  File tmp;

  private static final Set<String> HADOOP_336_MISSING = new HashSet<>(Arrays.asList("-sortTopNodes",
      "-hotBlockTimeInterval", "-excludeSource", "-target", "-excludeTarget", "-limitOverUtilizedNum"));

  /** Parses as on the newest line, where every stock option is taken. */
  private static BalancerSettings parse(String... args) {
    return BalancerOptions.parse(args, new BalancerSettings(new Configuration(false)), Collections.emptySet());
  }

  @Test
  void everyStockOptionIsAccepted() throws Exception {
    File hosts = new File(tmp, "sources");
    Files.write(hosts.toPath(), "dn1.example.com\ndn2.example.com:9866\n".getBytes(StandardCharsets.UTF_8));
    BalancerSettings s = parse("-policy", "Availability", "-threshold", "5.5", "-exclude", "a, b",
        "-source", "-f", hosts.getPath(), "-blockpools", "BP-1,BP-2", "-idleiterations", "-1",
        "-runDuringUpgrade", "-asService", "-sortTopNodes", "-hotBlockTimeInterval", "60000");
    assertEquals(5.5, s.threshold());
    assertEquals(new HashSet<>(Arrays.asList("a", "b")), s.excludedHosts());
    assertEquals(new HashSet<>(Arrays.asList("dn1.example.com", "dn2.example.com:9866")), s.sourceHosts());
    assertEquals(new HashSet<>(Arrays.asList("BP-1", "BP-2")), s.blockPools());
    assertEquals(-1, s.maxIdleIterations());
    assertTrue(s.runDuringUpgrade() && s.runAsService() && s.sortTopNodes());
    assertEquals(60000, s.hotBlockTimeInterval());
    assertFalse(s.spreadRacks());
    assertNull(s.reportFile());
  }

  @Test
  void hadoop35OptionsAreTakenOnALineWhoseStockBalancerTakesThem() {
    BalancerSettings s = parse("-policy", "availability", "-excludeSource", "a,b", "-target", "c",
        "-limitOverUtilizedNum", "3");
    assertEquals(new HashSet<>(Arrays.asList("a", "b")), s.excludedSourceHosts());
    assertEquals(new HashSet<>(Arrays.asList("c")), s.targetHosts());
    assertEquals(3, s.limitOverUtilised());
    s = parse("-excludeTarget", "d");
    assertEquals(new HashSet<>(Arrays.asList("d")), s.excludedTargetHosts());
    assertEquals(BalancerOptions.USAGE, BalancerOptions.usage(Collections.emptySet()));
    String usage336 = BalancerOptions.usage(HADOOP_336_MISSING);
    for (String missing : HADOOP_336_MISSING) {
      assertFalse(usage336.contains(missing + " ") || usage336.contains(missing + "]"), usage336);
    }
    assertTrue(usage336.contains("\t[-source [-f") && usage336.contains("\t[-asService]") && usage336.contains("-spreadRacks"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "-source a -excludeSource b|-excludeSource and -source options cannot be specified together.",
      "-target a -excludeTarget b|-excludeTarget and -target options cannot be specified together.",
      "-limitOverUtilizedNum -1|-limitOverUtilizedNum -1 is not valid: expected an integer >= 0",
      "-target|-target needs a value: expected -f <hosts-file> or a comma-separated list of hosts"})
  void hadoop35OptionsFollowTheStockRules(String args, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(args.split(" ")));
    assertEquals(message, e.getMessage());
  }

  @Test
  void laterLinesOptionsAreRefusedAsTheStockBalancerRefusesThemOnOlderLines() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BalancerOptions.parse(
        new String[] {"-policy", "availability", "-target", "c"}, new BalancerSettings(new Configuration(false)),
        HADOOP_336_MISSING));
    assertTrue(e.getMessage().startsWith("args = [-policy, availability, -target, c] (-target needs Hadoop 3.5.0"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> BalancerOptions.parse(new String[] {"-SORTTOPNODES"},
        new BalancerSettings(new Configuration(false)), HADOOP_336_MISSING));
    assertTrue(e.getMessage().startsWith("args = [-SORTTOPNODES] (-sortTopNodes needs Hadoop 3.4.0"), e.getMessage());
  }

  @Test
  void defaultsAreTheStockOnes() {
    BalancerSettings s = parse("-policy", "availability");
    assertEquals(10.0, s.threshold());
    assertEquals(5, s.maxIdleIterations());
    assertTrue(s.includedHosts().isEmpty() && s.excludedHosts().isEmpty() && s.sourceHosts().isEmpty());
    assertEquals(9000, s.iterationPauseMillis(), "2 heartbeats of 3 s + a 3 s redundancy round");
  }

  @Test
  void ourOwnOptions() {
    BalancerSettings s = parse("-policy", "availability", "-report", "/tmp/r.json", "-spreadRacks", "-maxBytes", "20g");
    assertEquals("/tmp/r.json", s.reportFile());
    assertTrue(s.spreadRacks());
    assertEquals(20L << 30, s.spreadMaxBytes());
  }

  @Test
  void policyIsFoundWhereverItIs() {
    assertEquals("availability", BalancerOptions.policyOf(new String[] {"-threshold", "5", "-POLICY", "AVAILABILITY"}));
    assertNull(BalancerOptions.policyOf(new String[] {"-threshold", "5"}));
    assertEquals("", BalancerOptions.policyOf(new String[] {"-policy"}));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "-policy availability -threshold 0.5 | -threshold 0.5 is not valid: expected a number in [1.0, 100.0]",
      "-policy availability -threshold abc | -threshold abc is not valid: expected a number in [1.0, 100.0]",
      "-policy availability -threshold | -threshold needs a value: expected a number in [1.0, 100.0]",
      "-policy nodes | Illegal policy name: nodes (expected datanode, blockpool or availability)",
      "-policy availability -include a -exclude b | -exclude and -include options cannot be specified together.",
      "-policy availability -idleiterations -2 | -idleiterations -2 is not valid: expected an integer >= -1 (-1 for infinite)",
      "-policy availability -hotBlockTimeInterval soon | -hotBlockTimeInterval soon is not valid: expected milliseconds >= 0",
      "-policy availability -maxBytes 5g | -maxBytes applies to -spreadRacks only: add -spreadRacks or drop -maxBytes",
      "-policy availability -spreadRacks -maxBytes lots | -maxBytes lots is not valid: expected a positive byte count such as 500m or 20g",
      "-policy availability -source -f /no/such/file | -source -f /no/such/file: cannot read the host list",
      "-policy availability -fast | Unknown option -fast: see the usage below",
  })
  void badInputIsOneLineNamingTheOption(String args, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(args.trim().split(" +")));
    assertTrue(e.getMessage().startsWith(message.trim()), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }
}
