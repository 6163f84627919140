package org.bulwark.hdfs.common.conf;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The daemons that read Bulwark's keys, each with the hosts whose configuration must carry them and the Hadoop keys
 * that switch its feature on. The example configuration and {@code docs/configuration.md} are grouped by these, so an
 * administrator sees per daemon what to set where.
 */
public enum KeyReader {
  NAMENODE("NameNode placement policies", "every NameNode, and the hosts that run the balancer or the mover (both load"
      + " the NameNode's policy)", "bulwark.placement.",
      new HadoopKey("dfs.block.replicator.classname", "org.bulwark.hdfs.placement.OneReplicaPerRackPlacementPolicy",
          "one replica per rack; or org.bulwark.hdfs.placement.HierarchicalPlacementPolicy for datacenter/rack/node"
              + " placement (one class only: it replaces the default, and BlockPlacementPolicyWithUpgradeDomain)"),
      new HadoopKey("net.topology.script.file.name", "/etc/hadoop/topology.sh",
          "a topology script that returns /rack, or /datacenter/rack for the hierarchical policy"),
      new HadoopKey("dfs.block.placement.ec.classname",
          "org.bulwark.hdfs.placement.HierarchicalErasureCodedPlacementPolicy",
          "optional: erasure-coded block groups spread over datacenters and racks"),
      new HadoopKey("dfs.namenode.plugins", "org.bulwark.hdfs.placement.rescan.TopologyGrowthRescan",
          "optional (added to any plugins already listed): racks and datacenters that come back get their share")),
  BALANCER("Availability balancer", "the host that runs hdfs balancer -policy availability", "bulwark.balancer."),
  HOTSTANDBY("Hot standby controller", "every NameNode host (hdfs --daemon start hotstandby, in place of zkfc)",
      "bulwark.hotstandby.",
      new HadoopKey("dfs.ha.automatic-failover.enabled", "true", "as for the stock ZKFC"),
      new HadoopKey("ha.zookeeper.quorum", "zk1:2181,zk2:2181,zk3:2181",
          "read where bulwark.hotstandby.zookeeper.quorum is not set"),
      new HadoopKey("dfs.ha.fencing.methods", "sshfence", "as for the stock ZKFC")),
  HOTSTANDBY_CLIENT("Hot standby clients", "only the client hosts that carry Bulwark's jars (a shared hdfs-site.xml"
      + " naming the provider breaks every client without them); they also read the bulwark.hotstandby.zookeeper.* keys",
      "bulwark.hotstandby.client.",
      new HadoopKey("dfs.client.failover.proxy.provider.<ns>",
          "org.bulwark.hdfs.hotstandby.ZooKeeperFailoverProxyProvider",
          "clients of nameservice <ns> find the active NameNode through ZooKeeper")),
  BLOCKMONITOR("Block monitor", "the one host that runs hdfs --daemon start blockmonitor (the cluster's client"
      + " configuration)", "bulwark.monitor.");

  /** A Hadoop key a feature needs: its name, the value that switches the feature on, and why. */
  public static final class HadoopKey {
    private final String name;
    private final String value;
    private final String meaning;

    HadoopKey(String name, String value, String meaning) {
      this.name = name;
      this.value = value;
      this.meaning = meaning;
    }

    public String name() {
      return name;
    }

    public String value() {
      return value;
    }

    public String meaning() {
      return meaning;
    }
  }

  private final String title;
  private final String hosts;
  private final String prefix;
  private final List<HadoopKey> hadoopKeys;

  KeyReader(String title, String hosts, String prefix, HadoopKey... hadoopKeys) {
    this.title = title;
    this.hosts = hosts;
    this.prefix = prefix;
    this.hadoopKeys = Collections.unmodifiableList(Arrays.asList(hadoopKeys));
  }

  /**
   * The reader of {@code key}, the one with the longest prefix it starts with; throws for a key no reader claims, so a
   * new key family cannot go ungrouped.
   */
  public static KeyReader of(ConfigKey<?> key) {
    KeyReader best = null;
    for (KeyReader reader : values()) {
      if (key.getName().startsWith(reader.prefix) && (best == null || reader.prefix.length() > best.prefix.length())) {
        best = reader;
      }
    }
    if (best == null) {
      throw new IllegalArgumentException(key.getName() + " starts with none of the readers' prefixes");
    }
    return best;
  }

  public String title() {
    return title;
  }

  /** The hosts whose configuration needs this reader's keys. */
  public String hosts() {
    return hosts;
  }

  /** The Hadoop keys that switch this reader's feature on. */
  public List<HadoopKey> hadoopKeys() {
    return hadoopKeys;
  }
}
