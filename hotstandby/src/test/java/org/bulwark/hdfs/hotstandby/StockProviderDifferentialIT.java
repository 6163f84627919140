package org.bulwark.hdfs.hotstandby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.apache.hadoop.hdfs.server.namenode.ha.ObserverReadProxyProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ZooKeeperFailoverProxyProvider} against Hadoop's {@link ConfiguredFailoverProxyProvider}, and
 * {@link ZooKeeperObserverReadProxyProvider} against Hadoop's {@link ObserverReadProxyProvider} (in a third of the
 * cases, where each NameNode that is not active may be an observer), on seeded generated situations a client meets:
 * three NameNodes listed in any order, sometimes with a fourth address that refuses connections or accepts and never
 * answers; the active NameNode moved since the client's last call, or none active; the active one's predecessor
 * shut down; ZooKeeper's record naming the active NameNode, the previous one, a standby, an address the client does
 * not know, or nothing, at any epoch; ZooKeeper itself down. No controller runs: the test sets every state itself,
 * including the wrong records a controller never writes (an administrator's manual
 * {@code -transitionToActive --forcemanual}, a record left by a controller that died).
 *
 * <p>Wherever the stock provider gets an answer, ours must get the same: a read (the file's status) and a write
 * (a directory made). Where the stock provider gets none (no NameNode active), ours must fail too, rather than
 * hang: each call has two minutes, far past either provider's retries. Both use the same retry settings
 * ({@code dfs.client.failover.*}: 3 failovers, short sleeps, so that a case without an active NameNode ends in
 * seconds); ours keeps its own defaults, so it waits up to {@code bulwark.hotstandby.client.failover-wait} (3 s)
 * at each failover for a NameNode to become active. How long each provider's calls took is printed, not judged. Cases: {@code -Dhotstandby.differential.cases=N}
 * (30 by default), seeds from {@code hotstandby.differential.seed} (1).
 */
@Tag("compat")
class StockProviderDifferentialIT {
  private static final int CASES = Integer.getInteger("hotstandby.differential.cases", 30);
  private static final long SEED = Long.getLong("hotstandby.differential.seed", 1L);
  private static final int NAME_NODES = 3;
  private static final long CALL_LIMIT_SECONDS = 120;

  @TempDir
  static Path hostDir;
  private static HotStandbyCluster ha;
  private static CuratorFramework writer;
  private static SilentPort silent;
  private static int refusedPort;
  private static final ExecutorService calls = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "differential-call");
    t.setDaemon(true);
    return t;
  });

  @BeforeAll
  static void start() throws Exception {
    ha = HotStandbyCluster.start(NAME_NODES, conf -> {
      // Observers serve reads in step with the active NameNode: the client's state is sent with each call, and
      // the embedded cluster's edits are shared through a directory, so an observer sees finished segments only.
      conf.setBoolean("dfs.namenode.state.context.enabled", true);
      conf.set("dfs.ha.log-roll.period", "1s");
      conf.set("dfs.ha.tail-edits.period", "100ms");
    }, conf -> { });
    writer = CuratorFrameworkFactory.newClient(ha.cluster.zooKeeperConnectString(), new ExponentialBackoffRetry(100, 3));
    writer.start();
    silent = new SilentPort();
    try (ServerSocket s = new ServerSocket(0)) {
      refusedPort = s.getLocalPort(); // closed again: nothing listens there
    }
    ha.cluster.mini().transitionToActive(0);
    ha.cluster.fs().mkdirs(new org.apache.hadoop.fs.Path("/differential"));
    ha.cluster.fs().create(new org.apache.hadoop.fs.Path("/differential/file")).close();
  }

  @AfterAll
  static void stop() throws Exception {
    calls.shutdownNow();
    if (silent != null) {
      silent.close();
    }
    if (writer != null) {
      writer.close();
    }
    if (ha != null) {
      ha.close();
    }
  }

  /** What ZooKeeper's active record says at the question. */
  enum Record { ABSENT, ACTIVE, PREVIOUS, STANDBY, UNKNOWN_ADDRESS, EXTRA_ADDRESS }

  /** A fourth configured NameNode that is not one: none, a port that refuses, or one that never answers. */
  enum Extra { NONE, REFUSED, SILENT }

  /** Which pair of providers a case compares. */
  enum Family {
    FAILOVER(ConfiguredFailoverProxyProvider.class, ZooKeeperFailoverProxyProvider.class),
    OBSERVER_READ(ObserverReadProxyProvider.class, ZooKeeperObserverReadProxyProvider.class);

    final Class<?> stock;
    final Class<?> ours;

    Family(Class<?> stock, Class<?> ours) {
      this.stock = stock;
      this.ours = ours;
    }
  }

  /**
   * One generated situation. NameNode indexes are 0-based; -1 is none. {@code observers}: a bit per NameNode that is
   * an observer throughout (observer-read cases only; never {@code before} or {@code after}, which are active once).
   */
  record Case(int seed, Family family, List<String> order, Extra extra, boolean warmedUp, int before, int after,
      boolean beforeDown, int observers, Record record, long epoch, boolean zooKeeperDown) {
    static Case generate(int seed) {
      Random r = new Random(seed * 0x9E3779B97F4A7C15L); // spread: Random's first draws follow small seeds closely
      Family family = r.nextInt(3) == 0 ? Family.OBSERVER_READ : Family.FAILOVER;
      Extra extra = r.nextInt(4) == 0 ? (r.nextInt(3) == 0 ? Extra.SILENT : Extra.REFUSED) : Extra.NONE;
      List<String> order = new ArrayList<>(List.of("nn1", "nn2", "nn3"));
      if (extra != Extra.NONE) {
        order.add("nn4");
      }
      Collections.shuffle(order, r);
      boolean warmedUp = r.nextInt(4) != 0;
      int before = r.nextInt(NAME_NODES);
      int after = r.nextInt(10) == 0 ? -1 : r.nextInt(NAME_NODES);
      boolean beforeDown = before != after && r.nextInt(6) == 0;
      int observers = 0;
      for (int i = 0; family == Family.OBSERVER_READ && i < NAME_NODES; i++) {
        if (i != before && i != after && r.nextInt(4) != 0) {
          observers |= 1 << i;
        }
      }
      Record record = Record.values()[r.nextInt(Record.values().length)];
      if (record == Record.EXTRA_ADDRESS && extra == Extra.NONE) {
        record = Record.UNKNOWN_ADDRESS;
      }
      if (record == Record.ACTIVE && after < 0) {
        record = Record.PREVIOUS; // none active: the record a controller that died left
      }
      return new Case(seed, family, order, extra, warmedUp, before, after, beforeDown, observers, record,
          1 + r.nextInt(20), r.nextInt(10) == 0);
    }

    boolean observer(int nn) {
      return (observers & (1 << nn)) != 0;
    }

    @Override
    public String toString() {
      StringBuilder observing = new StringBuilder();
      for (int i = 0; i < NAME_NODES; i++) {
        observing.append(observer(i) ? (observing.length() == 0 ? ", observers " : ",") + name(i) : "");
      }
      return String.format(Locale.ROOT, "case %d (%s): listed %s%s%s, %s while %s was active, then %s%s, record %s"
          + " (epoch %d)%s",
          seed, family.name().toLowerCase(Locale.ROOT).replace('_', ' '), order, observing,
          extra == Extra.NONE ? "" : " (nn4 " + extra.name().toLowerCase(Locale.ROOT) + ")",
          warmedUp ? "clients used" : "clients made", name(before), name(after),
          beforeDown ? " (nn" + (before + 1) + " shut down)" : "", record, epoch,
          zooKeeperDown ? ", ZooKeeper down" : "");
    }

    private static String name(int nn) {
      return nn < 0 ? "none" : "nn" + (nn + 1);
    }
  }

  /**
   * What one provider's client got: the read's answer and whether the write happened, or the first failure; and how
   * long it took (printed only).
   */
  record Answer(String read, boolean wrote, String failure, long millis) {
    boolean answered() {
      return failure == null;
    }
  }

  @Test
  void oursAnswersWhereverTheStockProviderDoes() throws Exception {
    int stockAnswered = 0;
    int bothFailed = 0;
    long stockMillis = 0;
    long oursMillis = 0;
    for (int seed = (int) SEED; seed < SEED + CASES; seed++) {
      Case c = Case.generate(seed);
      Answer[] answers = run(c);
      Answer stock = answers[0];
      Answer ours = answers[1];
      System.out.printf(Locale.ROOT, "%s%n  stock %s%n  ours  %s%n", c, stock, ours);
      stockMillis += stock.millis;
      oursMillis += ours.millis;
      if (stock.answered()) {
        stockAnswered++;
        assertTrue(ours.answered(), c + ": the stock provider answered, ours failed: " + ours.failure);
        assertEquals(stock.read, ours.read, c + ": the same file status");
        assertTrue(ours.wrote, c + ": ours made its directory");
      } else {
        bothFailed++;
        assertTrue(!ours.answered(), c + ": ours answered where no NameNode was active: " + ours);
        // An observer may still serve the read with no NameNode active; the write fails for both.
        assertEquals(stock.read, ours.read, c + ": the same read before the failed write");
      }
    }
    System.out.printf(Locale.ROOT, "%d cases: the stock provider answered %d, neither in %d; their calls took %d ms"
        + " through the stock provider, %d through ours%n", CASES, stockAnswered, bothFailed, stockMillis, oursMillis);
    assertTrue(stockAnswered > 0, "no case where the stock provider answered: the cases test nothing");
  }

  /** Sets up {@code c}, asks both providers, and puts the cluster back up (every NameNode and ZooKeeper). */
  private Answer[] run(Case c) throws Exception {
    List<FileSystem> clients = new ArrayList<>();
    try {
      arrange(c.before, c);
      publish(c.before, c.epoch);
      FileSystem stock = FileSystem.newInstance(URI.create("hdfs://ns1"), clientConf(c, false));
      FileSystem ours = FileSystem.newInstance(URI.create("hdfs://ns1"), clientConf(c, true));
      clients.add(stock);
      clients.add(ours);
      if (c.warmedUp) {
        stock.getFileStatus(new org.apache.hadoop.fs.Path("/differential/file"));
        ours.getFileStatus(new org.apache.hadoop.fs.Path("/differential/file"));
      }
      arrange(c.after, c);
      if (c.beforeDown) {
        ha.killNameNode(c.before);
      }
      writeRecord(c);
      if (c.zooKeeperDown) {
        ha.cluster.zooKeeper().stop();
      }
      return new Answer[] {ask(stock, c, "stock"), ask(ours, c, "ours")};
    } finally {
      for (FileSystem fs : clients) {
        fs.close();
      }
      if (c.zooKeeperDown) {
        ha.cluster.zooKeeper().restart();
      }
      if (c.beforeDown) {
        ha.restartNameNode(c.before);
      }
    }
  }

  private static Answer ask(FileSystem fs, Case c, String who) throws Exception {
    long start = System.nanoTime();
    Future<Answer> call = calls.submit(() -> {
      String read;
      try {
        FileStatus st = fs.getFileStatus(new org.apache.hadoop.fs.Path("/differential/file"));
        read = st.getPath().toUri().getPath() + " " + st.getLen() + " " + st.isFile();
      } catch (IOException e) {
        return new Answer(null, false, "read: " + briefly(e), since(start));
      }
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/differential/" + who + "-" + c.seed);
      try {
        boolean made = fs.mkdirs(dir);
        if (c.family == Family.OBSERVER_READ) {
          OwnWriteVisibility.afterWrite(fs);
        }
        boolean wrote = made && fs.getFileStatus(dir).isDirectory();
        return new Answer(read, wrote, null, since(start));
      } catch (IOException e) {
        return new Answer(read, false, "write: " + briefly(e), since(start));
      }
    });
    try {
      return call.get(CALL_LIMIT_SECONDS, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      call.cancel(true);
      return new Answer(null, false, "no answer within " + CALL_LIMIT_SECONDS + " s", since(start));
    }
  }

  /** The exception's class and the first line of its message (a RemoteException's carries the server's stack). */
  private static String briefly(IOException e) {
    String message = String.valueOf(e.getMessage());
    int eol = message.indexOf('\n');
    return e.getClass().getSimpleName() + ": " + (eol < 0 ? message : message.substring(0, eol));
  }

  private static long since(long nanoTime) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanoTime);
  }

  /**
   * Makes NameNode {@code active} the active one (none for -1), the observers of {@code c} observers and every other
   * standby, never two active at once (an observer becomes active or stops observing through standby, as
   * {@code haadmin} takes it).
   */
  private static void arrange(int active, Case c) throws Exception {
    for (int i = 0; i < NAME_NODES; i++) {
      boolean observer = c.observer(i);
      NameNode nn = ha.cluster.mini().getNameNode(i);
      if ((i != active && nn.isActiveState()) || (!observer && nn.isObserverState())) {
        ha.cluster.mini().transitionToStandby(i);
      }
      if (observer && !nn.isObserverState()) {
        ha.cluster.mini().transitionToObserver(i);
      }
    }
    if (active >= 0 && !ha.cluster.mini().getNameNode(active).isActiveState()) {
      ha.cluster.mini().transitionToActive(active);
    }
  }

  private static void writeRecord(Case c) throws Exception {
    switch (c.record) {
      case ABSENT:
        RecordWriter.delete(writer);
        break;
      case ACTIVE:
        publish(c.after, c.epoch + 1);
        break;
      case PREVIOUS:
        publish(c.before, c.epoch + 1);
        break;
      case STANDBY:
        publish(firstOtherThan(c.after, c.before), c.epoch + 1);
        break;
      case UNKNOWN_ADDRESS:
        publish("nn9", "10.255.255.1:8020", c.epoch + 1);
        break;
      case EXTRA_ADDRESS:
        publish("nn4", extraAddress(c.extra), c.epoch + 1);
        break;
      default:
        throw new IllegalArgumentException(c.record.name());
    }
  }

  /** A NameNode that is neither {@code a} nor {@code b}. */
  private static int firstOtherThan(int a, int b) {
    for (int i = 0; i < NAME_NODES; i++) {
      if (i != a && i != b) {
        return i;
      }
    }
    throw new IllegalStateException();
  }

  private static void publish(int nn, long epoch) throws Exception {
    publish("nn" + (nn + 1), rpcAddress(nn), epoch);
  }

  private static void publish(String nameNode, String rpcAddress, long epoch) throws Exception {
    RecordWriter.publish(writer, nameNode, rpcAddress, epoch);
  }

  private static String rpcAddress(int nn) {
    return ha.cluster.conf().getTrimmed("dfs.namenode.rpc-address.ns1.nn" + (nn + 1));
  }

  private static String extraAddress(Extra extra) {
    return "127.0.0.1:" + (extra == Extra.SILENT ? silent.address().getPort() : refusedPort);
  }

  /**
   * The client configuration of {@code c}: its order of NameNodes (and the fourth address), the same retry and
   * timeout settings for both providers, short enough that a case without an active NameNode ends in seconds.
   */
  private static Configuration clientConf(Case c, boolean ours) {
    Configuration conf = new Configuration(ha.cluster.conf());
    conf.set("dfs.ha.namenodes.ns1", String.join(",", c.order));
    if (c.extra != Extra.NONE) {
      conf.set("dfs.namenode.rpc-address.ns1.nn4", extraAddress(c.extra));
    }
    conf.setBoolean("dfs.client.failover.random.order", false);
    conf.setInt("dfs.client.failover.max.attempts", 3);
    conf.setInt("dfs.client.failover.sleep.base.millis", 50);
    conf.setInt("dfs.client.failover.sleep.max.millis", 400);
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    conf.setInt("ipc.client.rpc-timeout.ms", 3000);
    conf.set("dfs.client.failover.proxy.provider.ns1", (ours ? c.family.ours : c.family.stock).getName());
    conf.set("bulwark.hotstandby.client.host-dir", hostDir.toString());
    return conf;
  }
}
