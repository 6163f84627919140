package org.bulwark.hdfs.hotstandby;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Hosts of their own on this machine, as Linux network namespaces: host {@code i} has the address
 * {@code 10.88.i.2} and reaches the test's namespace (ZooKeeper, the JournalNodes, the DataNodes, the
 * clients) through a veth pair whose other end is {@code 10.88.i.1}; hosts reach each other through the
 * test's namespace, which forwards.
 *
 * <p>Why: a host that vanishes from the network is neither kill -9 (the kernel closes its sockets at once)
 * nor kill -STOP (its kernel still accepts connections and acknowledges data). {@link #cut} drops every
 * packet to and from a host without a word to either side, as a dead switch port or a powered-off host does
 * before its neighbours' ARP entries expire: connects time out, sent data is never acknowledged, and the
 * host's processes run on, unable to reach anyone. It does so by pointing both ends' neighbour entries at a
 * MAC address nobody has (iproute2 only: this kernel has no netem).
 *
 * <p>Each host resolves names from a hosts file of its own that names every host, and asks no DNS server
 * (one on loopback, where nothing listens): this machine's resolver is not reachable from a host's address,
 * and Hadoop's reverse lookups of peers would wait out its timeout (measured: 10 s a lookup).
 *
 * <p>Needs root and {@code ip}; {@link #available} says whether this machine has both.
 */
final class HostNetwork implements AutoCloseable {
  private static final String NAMESPACE = "bulwark-host";
  private static final String NOBODY_MAC = "02:00:00:00:00:01";
  private static final String LINK_PREFIX = "bwhost";

  private final int hosts;
  /** The hosts {@link #cut} and not yet healed. */
  private final Set<Integer> cutOff = new TreeSet<>();
  private boolean closed;

  private HostNetwork(int hosts) {
    this.hosts = hosts;
  }

  /** Whether this machine lets the test make network namespaces (root, iproute2). */
  static boolean available() {
    String probe = NAMESPACE + "-probe";
    try {
      run("ip", "netns", "add", probe);
      run("ip", "netns", "del", probe);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Makes {@code hosts} hosts, removing first any left by an earlier run that did not close them (their
   * addresses would clash).
   */
  static HostNetwork create(int hosts) throws IOException {
    if (hosts > 250) {
      throw new IllegalArgumentException("at most 250 hosts, not " + hosts);
    }
    removeLeftovers();
    Files.write(Paths.get("/proc/sys/net/ipv4/ip_forward"), "1".getBytes(StandardCharsets.US_ASCII));
    HostNetwork net = new HostNetwork(hosts);
    try {
      for (int i = 0; i < hosts; i++) {
        String ns = namespace(i);
        writeResolverFiles(ns, hosts);
        run("ip", "netns", "add", ns);
        run("ip", "link", "add", outer(i), "type", "veth", "peer", "name", inner(i));
        run("ip", "link", "set", inner(i), "netns", ns);
        run("ip", "addr", "add", gateway(i) + "/24", "dev", outer(i));
        run("ip", "link", "set", outer(i), "up");
        run("ip", "-n", ns, "addr", "add", addressOf(i) + "/24", "dev", inner(i));
        run("ip", "-n", ns, "link", "set", inner(i), "up");
        run("ip", "-n", ns, "link", "set", "lo", "up");
        run("ip", "-n", ns, "route", "add", "default", "via", gateway(i));
      }
      return net;
    } catch (IOException | RuntimeException e) {
      try {
        net.close();
      } catch (IOException partly) {
        e.addSuppressed(partly); // the hosts not made yet cannot be removed
      }
      throw e;
    }
  }

  private static void removeLeftovers() throws IOException {
    String list = run("ip", "netns", "list");
    for (String line : list.split("\n")) {
      String name = line.trim().split("\\s+")[0];
      if (name.startsWith(NAMESPACE)) {
        run("ip", "netns", "del", name);
        removeResolverFiles(name);
      }
    }
    // A namespace some process still ran in when it was deleted can leave its veth pair behind.
    for (String line : run("ip", "-o", "link", "show").split("\n")) {
      String[] fields = line.split(":\\s+");
      if (fields.length > 1 && fields[1].startsWith(LINK_PREFIX)) {
        run("ip", "link", "del", fields[1].split("@")[0]);
      }
    }
  }

  /**
   * {@code ip netns exec} mounts {@code /etc/netns/<namespace>/*} over {@code /etc}: this host's hosts file plus
   * every host and gateway, and a resolver on loopback that refuses at once.
   */
  private static void writeResolverFiles(String ns, int hosts) throws IOException {
    Path dir = Files.createDirectories(Paths.get("/etc/netns", ns));
    StringBuilder names = new StringBuilder(new String(Files.readAllBytes(Paths.get("/etc/hosts")), StandardCharsets.UTF_8));
    names.append('\n');
    for (int i = 0; i < hosts; i++) {
      names.append(gateway(i)).append(" bulwark-gateway").append(i).append('\n');
      names.append(addressOf(i)).append(" bulwark-host").append(i).append('\n');
    }
    Files.write(dir.resolve("hosts"), names.toString().getBytes(StandardCharsets.UTF_8));
    Files.write(dir.resolve("resolv.conf"), "nameserver 127.0.0.1\n".getBytes(StandardCharsets.US_ASCII));
  }

  private static void removeResolverFiles(String ns) throws IOException {
    Path dir = Paths.get("/etc/netns", ns);
    Files.deleteIfExists(dir.resolve("hosts"));
    Files.deleteIfExists(dir.resolve("resolv.conf"));
    Files.deleteIfExists(dir);
  }

  private static String namespace(int i) {
    return NAMESPACE + i;
  }

  /** The test's end of host {@code i}'s veth pair (interface names are at most 15 characters). */
  private static String outer(int i) {
    return LINK_PREFIX + i + "o";
  }

  private static String inner(int i) {
    return LINK_PREFIX + i + "i";
  }

  /** Host {@code i}'s address: what its daemons bind and what others dial. */
  String address(int i) {
    check(i);
    return addressOf(i);
  }

  private static String addressOf(int i) {
    return "10.88." + i + ".2";
  }

  /** The test's namespace as host {@code i} reaches it: its daemons dial ZooKeeper and the JournalNodes here. */
  static String gateway(int i) {
    return "10.88." + i + ".1";
  }

  /** The command prefix that runs a process on host {@code i}. */
  List<String> launcher(int i) {
    check(i);
    return Arrays.asList("ip", "netns", "exec", namespace(i));
  }

  /** Drops every packet to and from host {@code i} from now on, telling neither side. */
  synchronized void cut(int i) throws IOException {
    check(i);
    cutOff.add(i);
    run("ip", "neigh", "replace", address(i), "lladdr", NOBODY_MAC, "dev", outer(i), "nud", "permanent");
    run("ip", "-n", namespace(i), "neigh", "replace", gateway(i), "lladdr", NOBODY_MAC, "dev", inner(i), "nud",
        "permanent");
  }

  /** Undoes {@link #cut}: neighbours are looked up again. */
  synchronized void heal(int i) throws IOException {
    check(i);
    cutOff.remove(i);
    run("ip", "neigh", "del", address(i), "dev", outer(i));
    run("ip", "-n", namespace(i), "neigh", "del", gateway(i), "dev", inner(i));
  }

  /**
   * Heals every host still cut off: what this host's daemons still dial there (a DataNode's heartbeat, say) is
   * then refused at once instead of waiting out its connect timeout, which can hold up their shutdown for minutes.
   */
  synchronized void healAll() throws IOException {
    for (Integer i : new ArrayList<>(cutOff)) {
      heal(i);
    }
  }

  private void check(int i) {
    if (i < 0 || i >= hosts) {
      throw new IllegalArgumentException("no host " + i + " of " + hosts);
    }
  }

  /** Removes every host; a process still running on one goes on with no network. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException first = null;
    for (int i = 0; i < hosts; i++) {
      try {
        run("ip", "netns", "del", namespace(i)); // takes its veth pair with it
        removeResolverFiles(namespace(i));
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** Runs a command; its output, or an exception naming the command and what it printed. */
  private static String run(String... cmd) throws IOException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException(String.join(" ", cmd) + ": " + e.getMessage(), e);
    }
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", cmd) + " did not end within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(String.join(" ", cmd) + " interrupted", e);
    }
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + out.trim());
    }
    return out;
  }

}
