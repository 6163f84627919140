package org.bulwark.hdfs.balancer.exec;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.commons.io.IOUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.web.URLConnectionFactory;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.client.AuthenticationException;

/**
 * What a namespace's active NameNode says on its JMX about storages it has not heard a block report
 * from since it became active ({@code NumStaleStorages}) and the mis-replicated blocks whose excess
 * replicas it holds back until then ({@code PostponedMisreplicatedBlocks}). While either is above zero,
 * {@code getBlocks} skips those storages and a balancer's copies keep their sources: a run then piles
 * up copies. It also says how many replicas it wants gone that a DataNode may still hold and count in
 * its reported use ({@code ExcessBlocks}, {@code PendingDeletionBlocks}). No RPC carries these figures,
 * so they are read over the NameNode's HTTP server, as an operator's monitoring reads them.
 */
public final class ActiveNameNodeState {
  /**
   * Every FSNamesystem bean: one in a NameNode's JVM; several where NameNodes share a JVM (a test
   * cluster), where the active one's is taken.
   */
  private static final String FSNAMESYSTEM_QUERY = "/jmx?qry=Hadoop:service=NameNode,name=FSNamesystem*";
  /**
   * The namesystem's state MXBean: its stale-storage count read live (the metrics source above serves a
   * cached copy, and where NameNodes share a JVM a stopped one's source can outlive it; this bean is
   * unregistered when its NameNode stops).
   */
  private static final String STATE_QUERY = "/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState*";
  /** The NameNode's status MXBean: live values, among them the time of its last HA transition. */
  private static final String STATUS_QUERY = "/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus*";
  /** How long after an activation the figures are not trusted: a metrics period and a heartbeat check. */
  static final long FIGURES_LAG_MILLIS = 15_000;
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The metrics source, not the {@code FSNamesystemState} MXBean the query also matches. */
  private static final java.util.regex.Pattern FSNAMESYSTEM =
      java.util.regex.Pattern.compile("Hadoop:service=NameNode,name=FSNamesystem(-\\d+)?");

  /** The figures of one namespace's active NameNode. */
  public static final class Reading {
    public final String nameNode;
    public final long staleStorages;
    public final long postponedBlocks;
    /**
     * Excess replicas not yet confirmed deleted plus replicas queued for deletion: until they are gone,
     * their DataNodes' reported use counts them.
     */
    public final long awaitingDeletion;

    /** Figures read; -1 for all where the namespace's NameNodes named no active one yet. */
    public Reading(String nameNode, long staleStorages, long postponedBlocks, long awaitingDeletion) {
      this.nameNode = nameNode;
      this.staleStorages = staleStorages;
      this.postponedBlocks = postponedBlocks;
      this.awaitingDeletion = awaitingDeletion;
    }

    public boolean known() {
      return staleStorages >= 0;
    }

    /**
     * Every storage has reported since the activation. Postponed blocks are not waited for: the
     * NameNode rescans them every redundancy round once their storages have reported, and moves made
     * meanwhile have their excess replicas deleted as usual.
     */
    public boolean settled() {
      return staleStorages == 0;
    }
  }

  private final Configuration conf;
  private final URLConnectionFactory connections;

  public ActiveNameNodeState(Configuration conf) {
    this.conf = conf;
    this.connections = URLConnectionFactory.newDefaultURLConnectionFactory(conf);
  }

  /**
   * Reads the active NameNode of the namespace {@code nameNodeUri} names; null when its NameNodes
   * answer but none as active, or the active one became so less than {@link #FIGURES_LAG_MILLIS} ago
   * (its stale-storage count is refreshed by its heartbeat monitor and served through the metrics
   * system's cache, so for some seconds after an activation it still says 0); throws when none answers.
   */
  public Reading read(URI nameNodeUri) throws IOException {
    IOException last = null;
    boolean answered = false;
    List<URI> addresses = httpAddresses(nameNodeUri);
    for (URI http : addresses) {
      try {
        JsonNode beans = JSON.readTree(fetch(http, FSNAMESYSTEM_QUERY)).path("beans");
        answered = true;
        if (recentlyActivated(http)) {
          continue;
        }
        // One NameNode per JVM on a real cluster; where several share one (test clusters), the largest
        // figures: only an active NameNode marks its storages stale.
        long postponed = -1;
        long excess = -1;
        for (JsonNode bean : beans) {
          if (FSNAMESYSTEM.matcher(bean.path("name").asText()).matches()
              && "active".equals(bean.path("tag.HAState").asText("active"))) {
            postponed = Math.max(postponed, bean.path("PostponedMisreplicatedBlocks").asLong());
            excess = Math.max(excess, bean.path("ExcessBlocks").asLong());
          }
        }
        long stale = -1;
        long pendingDeletion = -1;
        for (JsonNode bean : JSON.readTree(fetch(http, STATE_QUERY)).path("beans")) {
          stale = Math.max(stale, bean.path("NumStaleStorages").asLong());
          pendingDeletion = Math.max(pendingDeletion, bean.path("PendingDeletionBlocks").asLong());
        }
        if (postponed >= 0 && stale >= 0) {
          return new Reading(http.getAuthority(), stale, postponed, excess + Math.max(0, pendingDeletion));
        }
      } catch (IOException e) {
        last = e;
      }
    }
    if (answered) {
      return null;
    }
    throw last != null ? last : new IOException("no NameNode of " + nameNodeUri + " at " + addresses);
  }

  private List<URI> httpAddresses(URI nameNodeUri) throws IOException {
    String scheme = DFSUtil.getHttpPolicy(conf).isHttpEnabled() ? "http" : "https";
    List<URI> out = new ArrayList<>();
    if (HAUtilClient.isLogicalUri(conf, nameNodeUri)) {
      Map<String, InetSocketAddress> nns = DFSUtilClient.getHaNnWebHdfsAddresses(conf,
          "http".equals(scheme) ? "webhdfs" : "swebhdfs").get(nameNodeUri.getHost());
      if (nns != null) {
        for (InetSocketAddress a : nns.values()) {
          out.add(URI.create(scheme + "://" + a.getHostString() + ":" + a.getPort()));
        }
      }
    } else {
      out.add(DFSUtil.getInfoServer(DFSUtilClient.getNNAddress(nameNodeUri), conf, scheme));
    }
    return out;
  }

  /** Whether the active NameNode answering at {@code http} became active less than the figures' lag ago. */
  private boolean recentlyActivated(URI http) throws IOException {
    for (JsonNode bean : JSON.readTree(fetch(http, STATUS_QUERY)).path("beans")) {
      long since = bean.path("LastHATransitionTime").asLong(0);
      if ("active".equals(bean.path("State").asText()) && since > 0
          && System.currentTimeMillis() - since < FIGURES_LAG_MILLIS) {
        return true;
      }
    }
    return false;
  }

  private String fetch(URI http, String query) throws IOException {
    URLConnection c;
    try {
      c = connections.openConnection(new URL(http + query), UserGroupInformation.isSecurityEnabled());
    } catch (AuthenticationException e) {
      throw new IOException("cannot authenticate to " + http + ": " + e.getMessage(), e);
    }
    c.setConnectTimeout(5000);
    c.setReadTimeout(10000);
    try (InputStream in = c.getInputStream()) {
      return IOUtils.toString(in, StandardCharsets.UTF_8);
    }
  }
}
