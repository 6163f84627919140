/**
 * How controllers and clients reach ZooKeeper, and who may write there.
 * {@link org.bulwark.hdfs.hotstandby.zookeeper.ZooKeeperAccess} reads the quorum, the identity
 * ({@code ha.zookeeper.auth} or SASL) and the ACL ({@code ha.zookeeper.acl} plus a read-only entry for clients,
 * each overridable by a {@code bulwark.hotstandby.zookeeper.*} key) and builds Curator clients with them;
 * {@link org.bulwark.hdfs.hotstandby.zookeeper.ZnodeGuard} creates and secures a nameservice's znodes and proves,
 * before a controller stands for election, that ZooKeeper lets it write. Parsing ACLs and auth and reading
 * credential providers are Hadoop's ({@code ZKUtil}, {@code SecurityUtil}); what the znodes hold is
 * {@code org.bulwark.hdfs.hotstandby.discovery}'s and {@code org.bulwark.hdfs.hotstandby.election}'s.
 */
package org.bulwark.hdfs.hotstandby.zookeeper;
