package org.bulwark.hdfs.common.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ConfigKeyTest {
  enum Mode { FAIL_BACK, STAY }

  private final Configuration conf = new Configuration(false);

  @Test
  void defaultsApplyWhenUnset() {
    assertEquals(30_000L, SampleKeys.INTERVAL.get(conf));
    assertEquals(Boolean.FALSE, SampleKeys.ENABLED.get(conf));
    assertNull(ConfigKey.text("bulwark.monitor.sample.url", "", "A URL.").get(conf));
  }

  @Test
  void durationsTakeHadoopSuffixes() {
    ConfigKey<Long> key = ConfigKey.durationMillis("bulwark.t.timeout", "500", 0, "A timeout.");
    assertEquals(500L, key.get(conf));
    conf.set(key.getName(), " 2s ");
    assertEquals(2000L, key.get(conf));
    conf.set(key.getName(), "1m");
    assertEquals(60_000L, key.get(conf));
    conf.set(key.getName(), "1500us");
    assertEquals(1L, key.get(conf));
  }

  @Test
  void aStockTwinSetByTheAdministratorIsTheDefaultAndOursOverridesIt() {
    ConfigKey<Long> key = ConfigKey.durationMillis("bulwark.t.health-timeout", "45s", 100, "A timeout.")
        .withStockTwin("ha.health-monitor.rpc-timeout.ms");
    Configuration withDefaults = new Configuration(); // core-default.xml sets the stock key: that is no choice
    assertEquals("45000", withDefaults.get("ha.health-monitor.rpc-timeout.ms"));
    assertEquals(45_000L, key.get(withDefaults));
    withDefaults.set("ha.health-monitor.rpc-timeout.ms", "90000");
    assertEquals(90_000L, key.get(withDefaults), "the administrator's stock tuning holds");
    withDefaults.set(key.getName(), "20s");
    assertEquals(20_000L, key.get(withDefaults), "ours, set, overrides the stock key");
    Configuration bad = new Configuration(false);
    bad.set("ha.health-monitor.rpc-timeout.ms", "soon");
    InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> key.get(bad));
    assertEquals("ha.health-monitor.rpc-timeout.ms", e.getKey(), "the error names the key that was set");
  }

  @Test
  void badValuesNameTheKeyTheValueAndWhatIsValid() {
    conf.set("bulwark.monitor.sample.poll.interval", "soon");
    InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> SampleKeys.INTERVAL.get(conf));
    assertEquals("bulwark.monitor.sample.poll.interval = 'soon' is not valid: expected a duration of at least 1ms,"
        + " such as 500ms, 2s or 1m", e.getMessage());
    assertEquals("bulwark.monitor.sample.poll.interval", e.getKey());

    conf.set("bulwark.monitor.sample.poll.interval", "0s");
    assertThrows(InvalidConfigException.class, () -> SampleKeys.INTERVAL.get(conf));

    conf.set("bulwark.monitor.sample.enabled", "yes");
    assertEquals("bulwark.monitor.sample.enabled = 'yes' is not valid: expected true or false",
        assertThrows(InvalidConfigException.class, () -> SampleKeys.ENABLED.get(conf)).getMessage());
  }

  @Test
  void aDurationsExamplesAreAllValid() {
    ConfigKey<Long> key = ConfigKey.durationMillis("bulwark.t.timeout", "2m", 1000, "A timeout.");
    conf.set(key.getName(), "500ms");
    assertEquals("bulwark.t.timeout = '500ms' is not valid: expected a duration of at least 1000ms, such as 2s, 1m"
        + " or 5m", assertThrows(InvalidConfigException.class, () -> key.get(conf)).getMessage());
    for (String example : new String[] {"2s", "1m", "5m"}) {
      conf.set(key.getName(), example);
      key.get(conf);
    }
  }

  @Test
  void hostPortsAreChecked() {
    ConfigKey<String> key = ConfigKey.hostPort("bulwark.t.http-address", "0.0.0.0:9880", "An address.");
    assertEquals("0.0.0.0:9880", key.get(conf));
    for (String good : new String[] {"127.0.0.1:0", "nn1.example.com:65535"}) {
      conf.set(key.getName(), good);
      assertEquals(good, key.get(conf));
    }
    for (String bad : new String[] {"9880", ":9880", "host:", "host:65536", "host:port", "a b:1", "a:b:1"}) {
      conf.set(key.getName(), bad);
      assertEquals("bulwark.t.http-address = '" + bad + "' is not valid: expected host:port, such as 0.0.0.0:9880"
          + " (port 0 to 65535)", assertThrows(InvalidConfigException.class, () -> key.get(conf)).getMessage(), bad);
    }
  }

  @Test
  void numbersAreRangeChecked() {
    ConfigKey<Long> key = ConfigKey.number("bulwark.t.count", 3, 1, 10, "A count.");
    conf.set(key.getName(), "10");
    assertEquals(10L, key.get(conf));
    conf.set(key.getName(), "11");
    assertEquals("bulwark.t.count = '11' is not valid: expected a whole number from 1 to 10",
        assertThrows(InvalidConfigException.class, () -> key.get(conf)).getMessage());
    conf.set(key.getName(), "99999999999999999999");
    assertThrows(InvalidConfigException.class, () -> key.get(conf));
  }

  @Test
  void percentagesTakeDecimalsAndStopAtOneHundred() {
    ConfigKey<Double> key = ConfigKey.percent("bulwark.t.share", "0.5", "A share.");
    assertEquals(0.5, key.get(conf));
    conf.set(key.getName(), "10%");
    assertEquals(10.0, key.get(conf));
    conf.set(key.getName(), "100");
    assertEquals(100.0, key.get(conf));
    for (String bad : new String[] {"100.1", "-1", "1e3", "half", "NaN"}) {
      conf.set(key.getName(), bad);
      assertEquals("bulwark.t.share = '" + bad + "' is not valid: expected a percentage from 0 to 100, such as 0, 0.5 or 10",
          assertThrows(InvalidConfigException.class, () -> key.get(conf)).getMessage());
    }
  }

  @Test
  void choicesAcceptDashedOrConstantNames() {
    ConfigKey<Mode> key = ConfigKey.choice("bulwark.t.mode", Mode.STAY, "A mode.");
    assertEquals(Mode.STAY, key.get(conf));
    conf.set(key.getName(), "fail-back");
    assertEquals(Mode.FAIL_BACK, key.get(conf));
    conf.set(key.getName(), "FAIL_BACK");
    assertEquals(Mode.FAIL_BACK, key.get(conf));
    conf.set(key.getName(), "sometimes");
    assertEquals("bulwark.t.mode = 'sometimes' is not valid: expected one of fail-back, stay",
        assertThrows(InvalidConfigException.class, () -> key.get(conf)).getMessage());
  }

  @Test
  void placeholdersAreFilledInOrder() {
    assertEquals("bulwark.monitor.sample.priority.ns1.nn2", SampleKeys.PRIORITY.resolve("ns1", "nn2"));
    conf.set("bulwark.monitor.sample.priority.ns1.nn2", "7");
    assertEquals(7L, SampleKeys.PRIORITY.get(conf, "ns1", "nn2"));
    assertEquals(0L, SampleKeys.PRIORITY.get(conf, "ns1", "nn1"));
    assertThrows(IllegalArgumentException.class, () -> SampleKeys.PRIORITY.resolve("ns1"));
    assertThrows(IllegalArgumentException.class, () -> SampleKeys.PRIORITY.resolve("a", "b", "c"));
  }

  @Test
  void declarationsAreCheckedWhenTheKeyIsMade() {
    assertThrows(IllegalArgumentException.class, () -> ConfigKey.flag("dfs.foo", true, "Not ours."));
    assertThrows(IllegalArgumentException.class, () -> ConfigKey.flag("bulwark.Foo", true, "Upper case."));
    assertThrows(IllegalArgumentException.class, () -> ConfigKey.flag("bulwark.foo", true, "two\nlines"));
    assertThrows(IllegalArgumentException.class, () -> ConfigKey.durationMillis("bulwark.foo", "never", 0, "Bad default."));
  }
}
