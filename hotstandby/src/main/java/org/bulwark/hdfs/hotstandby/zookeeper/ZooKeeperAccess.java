package org.bulwark.hdfs.hotstandby.zookeeper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.curator.framework.AuthInfo;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.security.ProviderUtils;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.util.ZKUtil;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.bulwark.hdfs.hotstandby.HotStandbyKeys;

/**
 * How a controller or a client reaches ZooKeeper: the quorum, who it is there, and the ACL of every
 * znode it creates. Whoever can write the active-NameNode record can send every client to a NameNode of
 * its choosing, so writers are only the identities {@code ha.zookeeper.acl} grants (the stock ZKFC's
 * key; {@code bulwark.hotstandby.zookeeper.acl} overrides it), while
 * {@code bulwark.hotstandby.zookeeper.read-acl} lets clients read. A controller's identity is
 * {@code ha.zookeeper.auth} (digest, read through credential providers, {@code @/file} indirection) and,
 * as with the stock ZKFC, SASL/Kerberos when the JVM's JAAS configuration has a {@code Client} section.
 */
public final class ZooKeeperAccess {
  private static final String HADOOP_ACL = "ha.zookeeper.acl";
  private static final String HADOOP_AUTH = "ha.zookeeper.auth";

  private final String quorum;
  private final List<AuthInfo> auth;
  private final List<ACL> acl;
  private final String identity;

  private ZooKeeperAccess(String quorum, List<AuthInfo> auth, List<ACL> acl, String identity) {
    this.quorum = quorum;
    this.auth = auth;
    this.acl = acl;
    this.identity = identity;
  }

  /**
   * Reads the quorum, identity and ACLs from {@code conf}.
   *
   * @throws InvalidConfigException naming the key whose value cannot be used
   */
  public static ZooKeeperAccess from(Configuration conf) throws IOException {
    String quorum = HotStandbyKeys.zooKeeperQuorum(conf);
    List<AuthInfo> auth = auth(conf);
    List<ACL> acl = new ArrayList<>(acl(conf, HotStandbyKeys.ZK_ACL.getName(), HADOOP_ACL, "world:anyone:rwcda"));
    for (ACL read : acl(conf, HotStandbyKeys.ZK_READ_ACL.getName(), null, HotStandbyKeys.ZK_READ_ACL.getDefaultText())) {
      if (acl.stream().noneMatch(a -> a.getId().equals(read.getId()))) {
        acl.add(read);
      }
    }
    StringBuilder who = new StringBuilder();
    for (AuthInfo a : auth) {
      who.append(who.length() == 0 ? "" : ", ").append(a.getScheme())
          .append("digest".equals(a.getScheme()) ? ":" + userOf(a) : "");
    }
    String section = System.getProperty("zookeeper.sasl.clientconfig", "Client");
    if (!"false".equals(System.getProperty("zookeeper.sasl.client")) && hasJaasSection(section)) {
      who.append(who.length() == 0 ? "" : ", ").append("sasl (JAAS section ").append(section).append(')');
    }
    return new ZooKeeperAccess(quorum, Collections.unmodifiableList(auth), Collections.unmodifiableList(acl),
        who.length() == 0 ? "anonymous" : who.toString());
  }

  /** Whether the JVM's JAAS configuration has {@code section}, which ZooKeeper's client then uses for SASL. */
  private static boolean hasJaasSection(String section) {
    try {
      return javax.security.auth.login.Configuration.getConfiguration().getAppConfigurationEntry(section) != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static List<AuthInfo> auth(Configuration conf) throws IOException {
    // As the stock ZKFC: credential providers stored in HDFS cannot be read before HDFS is up.
    Configuration c = conf;
    try {
      c = ProviderUtils.excludeIncompatibleCredentialProviders(conf, FileSystem.getFileSystemClass("hdfs", conf));
    } catch (UnsupportedFileSystemException e) {
      // no hdfs scheme on the classpath: nothing to exclude
    }
    String key = c.getPassword(HotStandbyKeys.ZK_AUTH.getName()) != null ? HotStandbyKeys.ZK_AUTH.getName() : HADOOP_AUTH;
    List<AuthInfo> out = new ArrayList<>();
    try {
      for (ZKUtil.ZKAuthInfo a : SecurityUtil.getZKAuthInfos(c, key)) {
        out.add(new AuthInfo(a.getScheme(), a.getAuth()));
      }
    } catch (HadoopIllegalArgumentException | IOException e) {
      throw new InvalidConfigException(key, "(hidden)", "scheme:auth pairs separated by commas such as "
          + "digest:hdfs-zkfcs:SECRET, or @/path/to/file holding them (" + firstLine(e) + ")");
    }
    return out;
  }

  private static List<ACL> acl(Configuration conf, String key, String fallbackKey, String defaultValue) {
    String usedKey = key;
    String value = conf.getTrimmed(key, "");
    if (value.isEmpty() && fallbackKey != null) {
      usedKey = fallbackKey;
      value = conf.getTrimmed(fallbackKey, "");
    }
    if (value.isEmpty()) {
      value = defaultValue;
    }
    try {
      List<ACL> acl = ZKUtil.parseACLs(ZKUtil.resolveConfIndirection(value));
      return acl.isEmpty() ? ZooDefs.Ids.CREATOR_ALL_ACL : acl;
    } catch (HadoopIllegalArgumentException | IOException e) {
      throw new InvalidConfigException(usedKey, value, "ZooKeeper ACLs scheme:id:perms separated by commas such as "
          + "sasl:hdfs:rwcda,world:anyone:r or digest:hdfs-zkfcs:BASE64SHA1:rwcda, or @/path/to/file (" + firstLine(e) + ")");
    }
  }

  private static String userOf(AuthInfo a) {
    String s = new String(a.getAuth(), java.nio.charset.StandardCharsets.UTF_8);
    int colon = s.indexOf(':');
    return colon < 0 ? s : s.substring(0, colon);
  }

  private static String firstLine(Exception e) {
    return String.valueOf(e.getMessage()).split("\n")[0];
  }

  public String quorum() {
    return quorum;
  }

  /** How many servers the quorum lists (its chroot aside). */
  public int servers() {
    int slash = quorum.indexOf('/');
    String hosts = slash < 0 ? quorum : quorum.substring(0, slash);
    int n = 0;
    for (String h : hosts.split(",")) {
      if (!h.trim().isEmpty()) {
        n++;
      }
    }
    return Math.max(1, n);
  }

  /** Every znode's ACL: the writers' ACL plus the readers'. */
  public List<ACL> acl() {
    return acl;
  }

  /** Who this process is to ZooKeeper, for messages: digest users, SASL, or anonymous. */
  public String identity() {
    return identity;
  }

  /** The ACL as configured: {@code scheme:id:perms,...}. */
  public String describeAcl() {
    StringBuilder b = new StringBuilder();
    for (ACL a : acl) {
      b.append(b.length() == 0 ? "" : ",").append(a.getId().getScheme()).append(':').append(a.getId().getId()).append(':');
      char[] letters = {'r', 'w', 'c', 'd', 'a'};
      int[] perms = {ZooDefs.Perms.READ, ZooDefs.Perms.WRITE, ZooDefs.Perms.CREATE, ZooDefs.Perms.DELETE, ZooDefs.Perms.ADMIN};
      for (int i = 0; i < letters.length; i++) {
        if ((a.getPerms() & perms[i]) != 0) {
          b.append(letters[i]);
        }
      }
    }
    return b.toString();
  }

  /** Whether any ZooKeeper client, authenticated or not, may change the znodes. */
  public boolean worldWritable() {
    return acl.stream().anyMatch(a -> "world".equals(a.getId().getScheme())
        && (a.getPerms() & (ZooDefs.Perms.WRITE | ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE)) != 0);
  }

  /** A Curator client builder for this quorum, identity and ACL. */
  public CuratorFrameworkFactory.Builder builder(int sessionTimeoutMillis) {
    CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(quorum)
        .sessionTimeoutMs(sessionTimeoutMillis).connectionTimeoutMs(Math.min(sessionTimeoutMillis, 15_000))
        .retryPolicy(new ExponentialBackoffRetry(100, 3))
        .aclProvider(new ACLProvider() {
          @Override
          public List<ACL> getDefaultAcl() {
            return acl;
          }

          @Override
          public List<ACL> getAclForPath(String path) {
            return acl;
          }
        });
    if (!auth.isEmpty()) {
      b.authorization(auth);
    }
    return b;
  }
}
