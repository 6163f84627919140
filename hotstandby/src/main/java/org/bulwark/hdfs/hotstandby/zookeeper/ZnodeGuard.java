package org.bulwark.hdfs.hotstandby.zookeeper;

import java.util.HashSet;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a controller does with its nameservice's znodes before it stands for election: creates the
 * persistent ones with the configured ACL, brings those created earlier under another ACL (a cluster
 * moving from an open to a secured ZooKeeper) to it, and proves with a throw-away ephemeral znode that
 * ZooKeeper lets it write. A controller ZooKeeper would refuse must not start and then fail at its
 * first election, so every refusal becomes one line naming the identity and the keys to fix.
 */
public final class ZnodeGuard {
  private static final Logger LOG = LoggerFactory.getLogger(ZnodeGuard.class);

  private final CuratorFramework client;
  private final ZooKeeperAccess access;
  private final ZNodes paths;

  public ZnodeGuard(CuratorFramework client, ZooKeeperAccess access, ZNodes paths) {
    this.client = client;
    this.access = access;
    this.paths = paths;
  }

  /**
   * Creates and secures the persistent znodes and checks that this controller may write them.
   *
   * @param me the controller's NameNode id (names the probe znode)
   * @throws IllegalArgumentException (one line) when ZooKeeper refuses this controller
   */
  public void secure(String me) throws Exception {
    String path = paths.base();
    try {
      ensure(path);
      ensure(paths.candidates());
      for (String p : new String[] {parentOf(path), path, paths.candidates(), paths.epoch(), paths.active(),
          paths.breadcrumb()}) {
        fixAcl(p);
      }
      path = paths.base() + "/.write-check-" + me;
      client.create().withMode(CreateMode.EPHEMERAL).forPath(path);
      client.delete().forPath(path);
    } catch (KeeperException.NoAuthException e) {
      throw new IllegalArgumentException("ZooKeeper " + access.quorum() + " refuses this controller (" + access.identity()
          + ") write access to " + path + ": set ha.zookeeper.auth (or bulwark.hotstandby.zookeeper.auth) or the JAAS "
          + "Client section to an identity that ha.zookeeper.acl (or bulwark.hotstandby.zookeeper.acl) grants rwcda");
    } catch (KeeperException.NodeExistsException e) {
      // a probe left by a session of ours that has not expired yet: the write itself was allowed
      LOG.debug("{} exists", path);
    }
    if (access.worldWritable()) {
      LOG.warn("The znodes under {} are writable by any ZooKeeper client ({}): whoever can reach ZooKeeper can send "
          + "clients to a NameNode of its choosing. Set ha.zookeeper.acl and ha.zookeeper.auth on secured clusters.",
          paths.base(), access.describeAcl());
    }
  }

  private void ensure(String path) throws Exception {
    try {
      client.create().creatingParentsIfNeeded().forPath(path);
    } catch (KeeperException.NodeExistsException e) {
      // created earlier
    }
  }

  private void fixAcl(String path) throws Exception {
    List<ACL> current;
    try {
      current = client.getACL().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      return;
    }
    if (!new HashSet<>(current).equals(new HashSet<>(access.acl()))) {
      client.setACL().withACL(access.acl()).forPath(path);
      LOG.info("ACL of {} set to {}", path, access.describeAcl());
    }
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }
}
