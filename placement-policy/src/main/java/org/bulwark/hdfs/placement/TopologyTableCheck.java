package org.bulwark.hdfs.placement;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.bulwark.hdfs.placement.rules.TopologyDepthRules;

/**
 * Checks, when the NameNode creates the placement policy, that a {@code TableMapping} topology file maps
 * every host at the same depth. Hadoop would otherwise refuse the odd DataNodes one by one as they
 * register, with a message that names neither the depth expected nor the file to fix. (A script
 * mapping cannot be checked ahead: its hosts are known only as they register.)
 */
final class TopologyTableCheck {
  static final String MAPPING_KEY = "net.topology.node.switch.mapping.impl";
  static final String TABLE_KEY = "net.topology.table.file.name";
  private static final String TABLE_MAPPING = "org.apache.hadoop.net.TableMapping";

  private TopologyTableCheck() {
  }

  /** Throws InvalidConfigException naming the table file and the offending host when depths differ. */
  static void check(Configuration conf) {
    String table = conf.getTrimmed(TABLE_KEY, "");
    if (!TABLE_MAPPING.equals(conf.getTrimmed(MAPPING_KEY, "")) || table.isEmpty()) {
      return;
    }
    Map<String, String> rackByHost = new LinkedHashMap<>();
    try (BufferedReader in = Files.newBufferedReader(Paths.get(table), StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        // TableMapping's format: "host rack" per line; comments ('#' first) and other lines are ignored by
        // Hadoop too.
        String trimmed = line.trim();
        String[] columns = trimmed.split("\\s+");
        if (!trimmed.startsWith("#") && columns.length == 2) {
          rackByHost.put(columns[0], columns[1]);
        }
      }
    } catch (IOException e) {
      // TableMapping reports an unreadable table itself, and maps every host to the default rack.
      return;
    }
    String mismatch = TopologyDepthRules.firstMismatch(rackByHost);
    if (mismatch != null) {
      throw new InvalidConfigException(TABLE_KEY, table, "a table mapping every host at the same depth, but " + mismatch);
    }
  }
}
