package org.bulwark.hdfs.hotstandby.election;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.bulwark.hdfs.hotstandby.controller.Candidate;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.discovery.Breadcrumb;
import org.bulwark.hdfs.hotstandby.discovery.ZNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One controller's view of, and writes to, its nameservice's election znodes ({@link ZNodes}). Reads
 * come from a {@link CuratorCache} kept current by a persistent recursive watch, so deciding costs no
 * ZooKeeper round trip; every change wakes the controller. Writes that decide anything are single
 * ZooKeeper transactions: taking the lock bumps the epoch, and a leader's later writes are checked
 * against the epoch it set ({@link Leadership}).
 */
public final class LeaderElection implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);
  /**
   * Rounds of {@link #resume}: each after the first follows its own transaction (to confirm what it wrote) or a change
   * of the lock it read (an expiry, a try that committed).
   */
  private static final int RESUME_ATTEMPTS = 4;
  /** Rounds of {@link #stand}: each after the first follows a candidacy that changed while it was read. */
  private static final int STAND_ATTEMPTS = 3;

  private final CuratorFramework client;
  private final ZNodes paths;
  private final String me;
  private final CuratorCache cache;
  private final CountDownLatch initialised = new CountDownLatch(1);
  /** When this controller first saw each candidate znode (by creation zxid): local time, no clock skew. */
  private final Map<String, long[]> candidateFirstSeen = new HashMap<>();

  public LeaderElection(CuratorFramework client, ZNodes paths, String me, Runnable onChange) {
    this.client = client;
    this.paths = paths;
    this.me = me;
    this.cache = CuratorCache.build(client, paths.base());
    cache.listenable().addListener(CuratorCacheListener.builder()
        .forAll((type, oldData, data) -> onChange.run())
        .forInitialized(() -> {
          initialised.countDown();
          onChange.run();
        })
        .build());
  }

  /** Creates the nameservice's persistent znodes if missing and fills the cache. */
  public void start() throws Exception {
    createIfMissing(paths.candidates(), new byte[0]);
    createIfMissing(paths.epoch(), "0".getBytes(StandardCharsets.UTF_8));
    cache.start();
    if (!initialised.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("could not read " + paths.base() + " from ZooKeeper within 30 s");
    }
  }

  private void createIfMissing(String path, byte[] data) throws Exception {
    try {
      client.create().creatingParentsIfNeeded().forPath(path, data);
    } catch (KeeperException.NodeExistsException e) {
      // Another controller made it first.
    }
  }

  private long sessionId() throws Exception {
    return client.getZookeeperClient().getZooKeeper().getSessionId();
  }

  // ---- reads (cache) ----

  /** The NameNode id in the leader lock, or null when the leadership is free. */
  public String leader() {
    Optional<ChildData> lock = cache.get(paths.lock());
    return lock.map(d -> text(d.getData())).orElse(null);
  }

  /** Whether the lock exists and belongs to this controller's current session. */
  public boolean iLead() {
    Optional<ChildData> lock = cache.get(paths.lock());
    if (!lock.isPresent() || !me.equals(text(lock.get().getData()))) {
      return false;
    }
    try {
      return lock.get().getStat().getEphemeralOwner() == sessionId();
    } catch (Exception e) {
      return false;
    }
  }

  /** Healthy candidates with their priorities and since when this controller has seen them. */
  public synchronized List<Candidate> candidates(long now) {
    List<Candidate> out = new ArrayList<>();
    Map<String, long[]> seen = new HashMap<>();
    String prefix = paths.candidates() + "/";
    cache.stream().filter(d -> d.getPath().startsWith(prefix)).forEach(d -> {
      String nn = d.getPath().substring(prefix.length());
      long czxid = d.getStat().getCzxid();
      long[] first = candidateFirstSeen.get(nn);
      if (first == null || first[0] != czxid) {
        first = new long[] {czxid, now};
      }
      seen.put(nn, first);
      int priority;
      try {
        priority = Integer.parseInt(text(d.getData()));
      } catch (NumberFormatException e) {
        priority = 0;
      }
      out.add(new Candidate(nn, priority, first[1]));
    });
    candidateFirstSeen.clear();
    candidateFirstSeen.putAll(seen);
    return out;
  }

  /** Whether this controller's candidate znode exists (for this session). */
  public boolean standing() {
    Optional<ChildData> c = cache.get(paths.candidate(me));
    try {
      return c.isPresent() && c.get().getStat().getEphemeralOwner() == sessionId();
    } catch (Exception e) {
      return false;
    }
  }

  /** The NameNode a pending manual failover goes to, or null. */
  public String handoffTarget() {
    return cache.get(paths.handoff()).map(d -> text(d.getData())).orElse(null);
  }

  /** The NameNodes the fencing breadcrumb names as cached; empty when there is none or it cannot be read. */
  public Set<String> cachedMayBeActive() {
    Optional<ChildData> crumb = cache.get(paths.breadcrumb());
    if (!crumb.isPresent()) {
      return Collections.emptySet();
    }
    try {
      return Breadcrumb.decode(crumb.get().getData()).mayBeActive();
    } catch (IllegalArgumentException e) {
      return Collections.emptySet();
    }
  }

  /** The active-NameNode record as cached, or null when there is none or it cannot be read. */
  public ActiveRecord cachedActiveRecord() {
    return cache.get(paths.active()).map(d -> decodeOrNull(d.getData())).orElse(null);
  }

  /** The active-NameNode record read from ZooKeeper itself, or null. */
  public ActiveRecord readActiveRecord() throws Exception {
    try {
      return decodeOrNull(client.getData().forPath(paths.active()));
    } catch (KeeperException.NoNodeException e) {
      return null;
    }
  }

  private static ActiveRecord decodeOrNull(byte[] data) {
    try {
      return ActiveRecord.decode(data);
    } catch (IllegalArgumentException e) {
      LOG.warn("Ignoring the active-NameNode record: {}", e.getMessage());
      return null;
    }
  }

  // ---- writes ----

  /**
   * Stands as a candidate of {@code priority}. A candidacy already there is this session's (a create Curator sent again
   * after a lost reply, or one the cache had not shown yet: kept, its priority set) or a previous session's, left until
   * that session expires (replaced). Before, a candidacy that went between the two (a delete Curator sent again) failed
   * the decision, and the controller stood only at its next retry, a second later. A priority set in place keeps the
   * candidacy's first sighting, which fail-back's delay counts from: a controller's priority is fixed for its life, and
   * one that could change it would have to withdraw and stand again.
   */
  public void stand(int priority) throws Exception {
    byte[] data = bytes(Integer.toString(priority));
    String path = paths.candidate(me);
    for (int attempt = 0; attempt < STAND_ATTEMPTS; attempt++) {
      try {
        client.create().withMode(CreateMode.EPHEMERAL).forPath(path, data);
        return;
      } catch (KeeperException.NodeExistsException e) {
        Stat stat = new Stat();
        try {
          byte[] current = client.getData().storingStatIn(stat).forPath(path);
          if (stat.getEphemeralOwner() == sessionId()) {
            if (!Arrays.equals(current, data)) {
              client.setData().withVersion(stat.getVersion()).forPath(path, data);
            }
            return;
          }
          client.delete().withVersion(stat.getVersion()).forPath(path);
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException changed) {
          // Gone or changed since it was read: create it again.
        }
      }
    }
    throw new IOException("could not stand as a candidate at " + path + ": it kept changing");
  }

  public void withdraw() throws Exception {
    try {
      client.delete().forPath(paths.candidate(me));
    } catch (KeeperException.NoNodeException e) {
      // Already gone.
    }
  }

  /**
   * Takes the leader lock, bumps the epoch and adds this controller's NameNode to the fencing
   * {@link Breadcrumb}, in one transaction. The breadcrumb is read before and its version checked in
   * that transaction, so what the new leader must fence is exactly what stood when it took the lock.
   *
   * @return the leadership, or null when another controller holds the lock or won the race
   */
  public Leadership acquire() throws Exception {
    Leadership l = acquireFromCache();
    return l != null ? l : acquireFromZooKeeper();
  }

  /**
   * {@link #acquire} on the epoch and breadcrumb as cached: no round trip before the transaction, whose
   * version checks make a stale cache fail it rather than count. Null when the cache lacks either znode
   * or the transaction failed (then {@link #acquireFromZooKeeper} reads them from ZooKeeper itself).
   */
  private Leadership acquireFromCache() throws Exception {
    Optional<ChildData> epochData = cache.get(paths.epoch());
    Optional<ChildData> crumbData = cache.get(paths.breadcrumb());
    if (!epochData.isPresent() || !crumbData.isPresent()) {
      return null;
    }
    Breadcrumb before;
    long epoch;
    try {
      before = Breadcrumb.decode(crumbData.get().getData());
      epoch = Long.parseLong(text(epochData.get().getData()).trim());
    } catch (IllegalArgumentException e) {
      return null;
    }
    return transact(epoch, epochData.get().getStat(), before, crumbData.get().getStat());
  }

  private Leadership acquireFromZooKeeper() throws Exception {
    Stat epochStat = new Stat();
    long epoch = Long.parseLong(text(client.getData().storingStatIn(epochStat).forPath(paths.epoch())).trim());
    Stat crumbStat = new Stat();
    Breadcrumb before = readBreadcrumb(crumbStat);
    return transact(epoch, epochStat, before, crumbStat);
  }

  /**
   * The lock, the next epoch and this NameNode added to {@code before}, in one transaction; null when it failed. A lock
   * naming this NameNode in another session (this controller's previous run, killed or restarted within a session
   * timeout) is replaced in the same transaction, checked by its version.
   */
  private Leadership transact(long epoch, Stat epochStat, Breadcrumb before, Stat crumbStat) throws Exception {
    Breadcrumb after = before.with(epoch + 1, me);
    long session = sessionId();
    List<CuratorOp> ops = new ArrayList<>();
    Optional<ChildData> lock = cache.get(paths.lock());
    if (lock.isPresent() && me.equals(text(lock.get().getData())) && lock.get().getStat().getEphemeralOwner() != session) {
      ops.add(client.transactionOp().delete().withVersion(lock.get().getStat().getVersion()).forPath(paths.lock()));
    }
    try {
      ops.add(client.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(paths.lock(), bytes(me)));
      ops.add(client.transactionOp().setData().withVersion(epochStat.getVersion())
          .forPath(paths.epoch(), bytes(Long.toString(epoch + 1))));
      ops.add(crumbStat.getMzxid() == 0
          ? client.transactionOp().create().forPath(paths.breadcrumb(), after.encode())
          : client.transactionOp().setData().withVersion(crumbStat.getVersion())
              .forPath(paths.breadcrumb(), after.encode()));
      client.transaction().forOperations(ops);
    } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException | KeeperException.NoNodeException e) {
      return null;
    }
    Set<String> toFence = new TreeSet<>(before.mayBeActive());
    toFence.remove(me);
    return new Leadership(epoch + 1, epochStat.getVersion() + 1, session, toFence);
  }

  /**
   * The breadcrumb as it stands, its stat in {@code stat} (zxid 0 when it does not exist yet). A cluster
   * upgraded from controllers without one, or a breadcrumb that cannot be read, falls back to the active
   * record: the NameNode it names as active must be fenced.
   */
  private Breadcrumb readBreadcrumb(Stat stat) throws Exception {
    try {
      byte[] data = client.getData().storingStatIn(stat).forPath(paths.breadcrumb());
      try {
        return Breadcrumb.decode(data);
      } catch (IllegalArgumentException e) {
        LOG.warn("Ignoring the fencing breadcrumb of {} ({}); fencing what the active record names", paths.base(),
            e.getMessage());
      }
    } catch (KeeperException.NoNodeException e) {
      stat.setMzxid(0);
    }
    ActiveRecord record = readActiveRecord();
    Set<String> named = new TreeSet<>();
    if (record != null && record.isActive()) {
      named.add(record.nameNodeId());
    }
    return new Breadcrumb(0, named);
  }

  /** The fencing breadcrumb read from ZooKeeper itself (null when there is none or it cannot be read). */
  public Breadcrumb readBreadcrumb() throws Exception {
    try {
      return Breadcrumb.decode(client.getData().forPath(paths.breadcrumb()));
    } catch (KeeperException.NoNodeException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Records that every NameNode {@code l} had to fence is fenced: the breadcrumb then names this
   * controller's NameNode alone. Only if {@code l} is still the latest leadership, which the result says
   * as {@link #stillLeading} would.
   */
  public boolean fenced(Leadership l) throws Exception {
    try {
      client.transaction().forOperations(
          client.transactionOp().check().withVersion(l.epochVersion()).forPath(paths.epoch()),
          client.transactionOp().setData().forPath(paths.breadcrumb(),
              new Breadcrumb(l.epoch(), Collections.singleton(me)).encode()));
      return sessionId() == l.sessionId();
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
      return false;
    }
  }

  /**
   * Whether {@code l} was taken by this client's current ZooKeeper session: false once Curator has given that session
   * up and opened another (LOST), with no round trip.
   */
  public boolean ofCurrentSession(Leadership l) {
    try {
      return sessionId() == l.sessionId();
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * Carries {@code l}, taken by a session this client has given up since, over to the current session, if no other
   * controller has led since: the epoch is still where {@code l} set it. The given-up session's lock, which ZooKeeper
   * may still hold (Curator gives a session up after a session timeout without a connection, ZooKeeper expires it a
   * timeout after it last heard from it), is replaced in the same transaction. Taking the lock bumps the epoch, so a
   * lock naming this NameNode at {@code l}'s epoch is this leadership's, whichever of this client's sessions holds it.
   * Safe to repeat: a lock the current session holds at that epoch (an earlier call, or this call's transaction that
   * committed and that Curator sent again after its reply was lost) is the leadership carried over.
   *
   * @return the leadership in the session that holds the lock, at {@code l}'s epoch; null when another controller leads
   *     or has led since
   */
  public Leadership resume(Leadership l) throws Exception {
    for (int attempt = 0; attempt < RESUME_ATTEMPTS; attempt++) {
      Stat lock = new Stat();
      String holder = lockHolder(lock);
      if (holder != null && !holder.equals(me)) {
        return null;
      }
      // Read after the lock: a session Curator replaced in between makes this one differ from the owner, and go round.
      boolean held = holder != null && lock.getEphemeralOwner() == sessionId();
      List<CuratorOp> ops = new ArrayList<>();
      ops.add(client.transactionOp().check().withVersion(l.epochVersion()).forPath(paths.epoch()));
      if (held) {
        ops.add(client.transactionOp().check().withVersion(lock.getVersion()).forPath(paths.lock()));
      } else {
        if (holder != null) {
          ops.add(client.transactionOp().delete().withVersion(lock.getVersion()).forPath(paths.lock()));
        }
        ops.add(client.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(paths.lock(), bytes(me)));
      }
      try {
        client.transaction().forOperations(ops);
      } catch (KeeperException.BadVersionException e) {
        return null;
      } catch (KeeperException.NoNodeException | KeeperException.NodeExistsException e) {
        // The lock changed since it was read: a lock that expired meanwhile, or a create that committed on a try whose
        // reply was lost. Read it again.
        continue;
      }
      if (held) {
        return new Leadership(l.epoch(), l.epochVersion(), lock.getEphemeralOwner(), l.toFence());
      }
      // Created: the next round confirms it and takes the session from the lock itself (Curator may have sent the
      // transaction again in a newer session than the one read before it).
    }
    throw new IOException("could not carry the leadership of " + paths.base() + " (epoch " + l.epoch()
        + ") over to a new ZooKeeper session: the lock kept changing");
  }

  /** The NameNode id in the lock, its stat in {@code stat}; null when there is no lock. */
  private String lockHolder(Stat stat) throws Exception {
    try {
      return text(client.getData().storingStatIn(stat).forPath(paths.lock()));
    } catch (KeeperException.NoNodeException e) {
      return null;
    }
  }

  /** Whether {@code l} is still the latest leadership, checked against ZooKeeper itself. */
  public boolean stillLeading(Leadership l) throws Exception {
    try {
      client.transaction().forOperations(client.transactionOp().check().withVersion(l.epochVersion()).forPath(paths.epoch()));
      return sessionId() == l.sessionId();
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
      return false;
    }
  }

  /**
   * Writes the active-NameNode record, only if {@code l} is still the latest leadership. Whether the
   * record exists is taken from the cache (it does after the first activation); a wrong guess costs one
   * more transaction.
   */
  public boolean publish(Leadership l, ActiveRecord record) throws Exception {
    boolean exists = cache.get(paths.active()).isPresent();
    try {
      return writeRecord(l, record, exists) || writeRecord(l, record, !exists);
    } catch (KeeperException.BadVersionException e) {
      return false;
    }
  }

  /** One try of {@link #publish}: false when the record's existence was guessed wrong. */
  private boolean writeRecord(Leadership l, ActiveRecord record, boolean exists) throws Exception {
    try {
      client.transaction().forOperations(
          client.transactionOp().check().withVersion(l.epochVersion()).forPath(paths.epoch()),
          exists ? client.transactionOp().setData().forPath(paths.active(), record.encode())
              : client.transactionOp().create().forPath(paths.active(), record.encode()));
      return true;
    } catch (KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
      return false;
    }
  }

  /**
   * Gives up the lock; with {@code lastWord} (the record as the NameNode is left) written in the same
   * transaction when {@code l} is still the latest leadership. A last word saying the NameNode was
   * {@linkplain ActiveRecord.State#RELINQUISHED relinquished} (it went to standby) or that its process
   * {@linkplain ActiveRecord.State#EXITED exited} also empties the breadcrumb: the next leader has
   * nothing to fence. Otherwise the breadcrumb keeps naming it.
   */
  public void release(Leadership l, ActiveRecord lastWord) throws Exception {
    if (l != null && lastWord != null) {
      try {
        if (lastWord.needsNoFencing()) {
          client.transaction().forOperations(
              client.transactionOp().check().withVersion(l.epochVersion()).forPath(paths.epoch()),
              client.transactionOp().setData().forPath(paths.active(), lastWord.encode()),
              client.transactionOp().setData().forPath(paths.breadcrumb(),
                  new Breadcrumb(l.epoch(), Collections.emptySet()).encode()),
              client.transactionOp().delete().forPath(paths.lock()));
        } else {
          client.transaction().forOperations(
              client.transactionOp().check().withVersion(l.epochVersion()).forPath(paths.epoch()),
              client.transactionOp().setData().forPath(paths.active(), lastWord.encode()),
              client.transactionOp().delete().forPath(paths.lock()));
        }
        return;
      } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
        LOG.info("Leadership of {} had already passed on; releasing the lock only", paths.base());
      }
    }
    Stat stat = client.checkExists().forPath(paths.lock());
    if (stat != null && stat.getEphemeralOwner() == sessionId()) {
      try {
        client.delete().withVersion(stat.getVersion()).forPath(paths.lock());
      } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
        // Gone already.
      }
    }
  }

  /**
   * Asks the leader to hand over to this controller's NameNode (ephemeral: vanishes with this controller).
   * False when another controller's request stands; a request of this session's own counts as made (a create
   * that Curator sent again after its reply was lost finds it there).
   */
  public boolean requestHandoff() throws Exception {
    try {
      client.create().withMode(CreateMode.EPHEMERAL).forPath(paths.handoff(), bytes(me));
      return true;
    } catch (KeeperException.NodeExistsException e) {
      Stat stat = new Stat();
      try {
        byte[] target = client.getData().storingStatIn(stat).forPath(paths.handoff());
        return stat.getEphemeralOwner() == sessionId() && me.equals(text(target));
      } catch (KeeperException.NoNodeException gone) {
        return false;
      }
    }
  }

  /** Removes this controller's handoff request, if it made one; whether it removed one. */
  public boolean clearHandoff() throws Exception {
    Stat stat = client.checkExists().forPath(paths.handoff());
    if (stat != null && stat.getEphemeralOwner() == sessionId()) {
      try {
        client.delete().withVersion(stat.getVersion()).forPath(paths.handoff());
        return true;
      } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
        // Gone already, or no longer the request just read.
      }
    }
    return false;
  }

  @Override
  public void close() {
    cache.close();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] b) {
    return b == null ? "" : new String(b, StandardCharsets.UTF_8);
  }
}
