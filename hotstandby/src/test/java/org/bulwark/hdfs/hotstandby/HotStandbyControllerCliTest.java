package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code hdfs hotstandby} with configuration it cannot run with: one line on stderr naming the key or
 * argument and what would be valid, exit code 1, nothing started. The NameNode addresses are never
 * contacted: every check here comes before the controller connects to anything but ZooKeeper.
 */
@Tag("compat")
class HotStandbyControllerCliTest {
  /** A valid two-NameNode HA configuration, as -D options; each case overrides or drops some. */
  private static List<String> valid() {
    return new ArrayList<>(Arrays.asList(
        "-Ddfs.nameservices=ns1",
        "-Ddfs.ha.namenodes.ns1=nn1,nn2",
        "-Ddfs.namenode.rpc-address.ns1.nn1=127.0.0.1:1",
        "-Ddfs.namenode.rpc-address.ns1.nn2=127.0.0.1:2",
        "-Ddfs.ha.namenode.id=nn1",
        "-Ddfs.ha.automatic-failover.enabled=true",
        "-Ddfs.ha.fencing.methods=shell(true)",
        "-Dha.zookeeper.quorum=127.0.0.1:1",
        "-Dbulwark.hotstandby.zookeeper.session-timeout=1s"));
  }

  private static String[] with(String... overrides) {
    List<String> args = valid();
    for (String o : overrides) {
      String key = o.substring(0, o.indexOf('=') + 1);
      args.removeIf(a -> a.startsWith(key));
      if (!o.endsWith("=<unset>")) {
        args.add(o);
      }
    }
    return args.toArray(new String[0]);
  }

  static Stream<Arguments> badInput() {
    return Stream.of(
        Arguments.of(with("-Ddfs.nameservices=<unset>", "-Ddfs.ha.namenodes.ns1=<unset>"),
            "hotstandby: cannot tell which nameservice this controller serves: set dfs.nameservices (one nameservice) or dfs.nameservice.id"),
        Arguments.of(with("-Ddfs.ha.namenodes.ns1=nn1"),
            "hotstandby: nameservice ns1 is not HA: dfs.ha.namenodes.ns1 must list two or more NameNodes"),
        Arguments.of(with("-Ddfs.ha.namenode.id=nn7"),
            "hotstandby: NameNode nn7 is not listed in dfs.ha.namenodes.ns1 [nn1, nn2]"),
        Arguments.of(with("-Ddfs.ha.automatic-failover.enabled=false"),
            "hotstandby: dfs.ha.automatic-failover.enabled is not true for ns1: the NameNodes would refuse the controller's transitions; set it to true and restart them"),
        Arguments.of(with("-Ddfs.ha.fencing.methods=<unset>"),
            "hotstandby: dfs.ha.fencing.methods is not valid: No fencer configured for NameNode at /127.0.0.1:1 (use e.g. sshfence or shell(/path/to/fence.sh))"),
        Arguments.of(with("-Dha.zookeeper.quorum=<unset>"),
            "hotstandby: bulwark.hotstandby.zookeeper.quorum = '' is not valid: expected a ZooKeeper connect string such as zk1:2181,zk2:2181 (or set ha.zookeeper.quorum)"),
        Arguments.of(with("-Dbulwark.hotstandby.zookeeper.parent-znode=bulwark-ha"),
            "hotstandby: bulwark.hotstandby.zookeeper.parent-znode = 'bulwark-ha' is not valid: expected an absolute znode path such as /bulwark-ha"),
        Arguments.of(with("-Dbulwark.hotstandby.zookeeper.session-timeout=fast"),
            "hotstandby: bulwark.hotstandby.zookeeper.session-timeout = 'fast' is not valid: expected a duration of at least 500ms, such as 500ms, 2s or 1m"),
        Arguments.of(with("-Dbulwark.hotstandby.health.check-interval=0"),
            "hotstandby: bulwark.hotstandby.health.check-interval = '0' is not valid: expected a duration of at least 10ms, such as 500ms, 2s or 1m"),
        Arguments.of(with("-Dbulwark.hotstandby.priority.ns1.nn2=high"),
            "hotstandby: bulwark.hotstandby.priority.ns1.nn2 = 'high' is not valid: expected a whole number from -2147483648 to 2147483647"),
        Arguments.of(with("-Dbulwark.hotstandby.failback.enabled=maybe"),
            "hotstandby: bulwark.hotstandby.failback.enabled = 'maybe' is not valid: expected true or false"),
        Arguments.of(with("-Dha.zookeeper.acl=world:anyone"),
            "hotstandby: ha.zookeeper.acl = 'world:anyone' is not valid: expected ZooKeeper ACLs scheme:id:perms separated by commas such as sasl:hdfs:rwcda,world:anyone:r or digest:hdfs-zkfcs:BASE64SHA1:rwcda, or @/path/to/file (ACL 'world:anyone' not of expected form scheme:id:perm)"),
        Arguments.of(with("-Dbulwark.hotstandby.zookeeper.acl=digest:hdfs-zkfcs:abc=:rwx"),
            "hotstandby: bulwark.hotstandby.zookeeper.acl = 'digest:hdfs-zkfcs:abc=:rwx' is not valid: expected ZooKeeper ACLs scheme:id:perms separated by commas such as sasl:hdfs:rwcda,world:anyone:r or digest:hdfs-zkfcs:BASE64SHA1:rwcda, or @/path/to/file (Invalid permission 'x' in permission string 'rwx')"),
        Arguments.of(with("-Dha.zookeeper.acl=@/no/such/acl-file"),
            "hotstandby: ha.zookeeper.acl = '@/no/such/acl-file' is not valid: expected ZooKeeper ACLs scheme:id:perms separated by commas such as sasl:hdfs:rwcda,world:anyone:r or digest:hdfs-zkfcs:BASE64SHA1:rwcda, or @/path/to/file (/no/such/acl-file (No such file or directory))"),
        Arguments.of(with("-Dbulwark.hotstandby.zookeeper.read-acl=anyone:r"),
            "hotstandby: bulwark.hotstandby.zookeeper.read-acl = 'anyone:r' is not valid: expected ZooKeeper ACLs scheme:id:perms separated by commas such as sasl:hdfs:rwcda,world:anyone:r or digest:hdfs-zkfcs:BASE64SHA1:rwcda, or @/path/to/file (ACL 'anyone:r' not of expected form scheme:id:perm)"),
        Arguments.of(with("-Dha.zookeeper.auth=digest"),
            "hotstandby: ha.zookeeper.auth = '(hidden)' is not valid: expected scheme:auth pairs separated by commas such as digest:hdfs-zkfcs:SECRET, or @/path/to/file holding them (Auth 'digest' not of expected form scheme:auth)"),
        Arguments.of(with("-Dha.zookeeper.auth=@/no/such/auth-file"),
            "hotstandby: ha.zookeeper.auth = '(hidden)' is not valid: expected scheme:auth pairs separated by commas such as digest:hdfs-zkfcs:SECRET, or @/path/to/file holding them (/no/such/auth-file (No such file or directory))"),
        Arguments.of(with(),
            "hotstandby: cannot connect to ZooKeeper at 127.0.0.1:1 (bulwark.hotstandby.zookeeper.quorum / ha.zookeeper.quorum)"),
        Arguments.of(append(valid(), "-failover"),
            "hotstandby: unknown argument '-failover'. Usage: hdfs hotstandby [generic options]"));
  }

  private static String[] append(List<String> args, String extra) {
    args.add(extra);
    return args.toArray(new String[0]);
  }

  @ParameterizedTest
  @MethodSource("badInput")
  void badInputGetsOneLineAndExitCodeOne(String[] args, String expected) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream saved = System.err;
    int rc;
    try {
      // The tool's own usage line goes to System.err; runMain's one line to the stream it is given.
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      rc = HotStandbyController.runMain(args, System.err);
    } finally {
      System.setErr(saved);
    }
    String out = err.toString(StandardCharsets.UTF_8).trim();
    assertEquals(1, rc, out);
    assertEquals(expected, out);
    assertTrue(!out.contains("\n"), "one line");
  }
}
