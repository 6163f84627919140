package org.bulwark.hdfs.hotstandby.discovery;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The NameNodes of a nameservice that may be serving as active and must be fenced by the next leader:
 * the fencing breadcrumb (the stock ZKFC keeps one for the same reason). A leader adds its own
 * NameNode in the very transaction that gives it the lock, before fencing anything or calling
 * {@code transitionToActive}, so a controller that dies at any point after taking the lock (kill -9,
 * OOM, a transition that timed out but happened) leaves its NameNode named. The set shrinks only when
 * a NameNode is known not to serve: fenced by the leader, or gone to standby when its leader stepped
 * down cleanly. Unlike {@link ActiveRecord}, which clients read and which is written only once the
 * NameNode is active, this is for controllers alone.
 *
 * <p>Stored as {@code key=value} lines, readable with {@code zkCli.sh get}.
 */
public final class Breadcrumb {
  private final long epoch;
  private final Set<String> mayBeActive;

  public Breadcrumb(long epoch, Set<String> mayBeActive) {
    this.epoch = epoch;
    this.mayBeActive = Collections.unmodifiableSet(new TreeSet<>(mayBeActive));
  }

  /** The leader epoch that last wrote it. */
  public long epoch() {
    return epoch;
  }

  /** NameNode ids that may be active: fence them before another becomes active. */
  public Set<String> mayBeActive() {
    return mayBeActive;
  }

  /** This breadcrumb with {@code nameNodeId} added, as written by the leader of {@code newEpoch}. */
  public Breadcrumb with(long newEpoch, String nameNodeId) {
    Set<String> s = new TreeSet<>(mayBeActive);
    s.add(nameNodeId);
    return new Breadcrumb(newEpoch, s);
  }

  public byte[] encode() {
    return ("epoch=" + epoch + "\nmayBeActive=" + String.join(",", mayBeActive) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** Decodes a breadcrumb; throws {@link IllegalArgumentException} naming what is malformed. */
  public static Breadcrumb decode(byte[] data) {
    Properties p = new Properties();
    try {
      p.load(new StringReader(new String(data == null ? new byte[0] : data, StandardCharsets.UTF_8)));
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("unreadable fencing breadcrumb: " + e.getMessage(), e);
    }
    String epoch = p.getProperty("epoch");
    String names = p.getProperty("mayBeActive");
    if (epoch == null || names == null) {
      throw new IllegalArgumentException("fencing breadcrumb lacks '" + (epoch == null ? "epoch" : "mayBeActive") + "'");
    }
    Set<String> s = new TreeSet<>();
    for (String n : names.split(",")) {
      if (!n.trim().isEmpty()) {
        s.add(n.trim());
      }
    }
    try {
      return new Breadcrumb(Long.parseLong(epoch.trim()), s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("fencing breadcrumb has 'epoch=" + epoch + "', not a number", e);
    }
  }

  @Override
  public String toString() {
    return "may be active: " + (mayBeActive.isEmpty() ? "none" : String.join(", ", mayBeActive)) + " (epoch " + epoch + ")";
  }
}
