package org.bulwark.hdfs.monitor.web;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.security.AuthenticationFilterInitializer;
import org.bulwark.hdfs.monitor.MonitorKeys;
import org.bulwark.hdfs.monitor.collect.MonitorStatus;
import org.bulwark.hdfs.monitor.health.HealthChecker;
import org.bulwark.hdfs.monitor.store.HistoryStore;

/**
 * The monitor's web server: Hadoop's {@link HttpServer2} (so {@code /jmx}, {@code /conf},
 * {@code /logLevel} and {@code /stacks} come with it, and Hadoop's authentication filters apply), the
 * pages in {@code webapps/blockmonitor} and the JSON API under {@code /api/}, over HTTP, HTTPS or both as
 * {@code dfs.http.policy} says ({@link WebEndpoints}).
 */
public final class MonitorHttpServer implements Closeable {
  static final String STORE = "bulwark.monitor.store";
  static final String STATUS = "bulwark.monitor.status";
  static final String HEALTH = "bulwark.monitor.health";

  private final HttpServer2 server;
  private final boolean servesHttp;
  private final boolean servesHttps;

  public MonitorHttpServer(Configuration conf, WebEndpoints endpoints, HistoryStore store, MonitorStatus status,
      HealthChecker health) throws IOException {
    HttpServer2.Builder builder = new HttpServer2.Builder().setName("blockmonitor").setConf(withAuthentication(conf))
        .setFindPort(false);
    servesHttp = endpoints.http() != null;
    servesHttps = endpoints.https() != null;
    if (servesHttp) {
      builder.addEndpoint(endpoints.http());
    }
    if (servesHttps) {
      DFSUtil.loadSslConfToHttpServerBuilder(builder, endpoints.ssl());
      builder.addEndpoint(endpoints.https());
    }
    this.server = builder.build();
    server.addGlobalFilter("bulwark-admins", AdminAccessFilter.class.getName(),
        Collections.singletonMap(AdminAccessFilter.ACL_PARAMETER, administrators(conf)));
    server.setAttribute(STORE, store);
    server.setAttribute(STATUS, status);
    server.setAttribute(HEALTH, health);
    server.addServlet("api", "/api/*", ApiServlet.class);
    server.getWebAppContext().setErrorHandler(new PlainErrorHandler());
  }

  /**
   * The server's configuration: as given, plus Hadoop's authentication filter when
   * {@code hadoop.http.authentication.type} asks for more than the default pseudo authentication
   * (SPNEGO with {@code kerberos}), as the NameNode's own web server does, so setting the type is enough.
   */
  private static Configuration withAuthentication(Configuration conf) {
    String type = conf.getTrimmed("hadoop.http.authentication.type", "simple");
    Collection<String> initializers = conf.getTrimmedStringCollection(HttpServer2.FILTER_INITIALIZER_PROPERTY);
    if ("simple".equals(type) || initializers.contains(AuthenticationFilterInitializer.class.getName())) {
      return conf;
    }
    Configuration c = new Configuration(conf);
    List<String> all = new ArrayList<>(initializers);
    all.add(AuthenticationFilterInitializer.class.getName());
    c.setStrings(HttpServer2.FILTER_INITIALIZER_PROPERTY, all.toArray(new String[0]));
    return c;
  }

  /** {@code bulwark.monitor.http.administrators}, else {@code dfs.cluster.administrators}, else everybody. */
  private static String administrators(Configuration conf) {
    String acl = MonitorKeys.HTTP_ADMINS.get(conf);
    if (acl == null) {
      acl = conf.get("dfs.cluster.administrators", "").trim().isEmpty() ? "*" : conf.get("dfs.cluster.administrators");
    }
    return acl;
  }

  public void start() throws IOException {
    server.start();
    // Requests Jetty rejects before any context (unparsable URIs, oversized headers) get the same answer.
    server.getWebAppContext().getServer().setErrorHandler(new PlainErrorHandler());
  }

  /** Where HTTP is served, or null under {@code dfs.http.policy} HTTPS_ONLY. */
  public InetSocketAddress httpAddress() {
    return servesHttp ? server.getConnectorAddress(0) : null;
  }

  /** Where HTTPS is served, or null under the default {@code dfs.http.policy} HTTP_ONLY. */
  public InetSocketAddress httpsAddress() {
    return servesHttps ? server.getConnectorAddress(servesHttp ? 1 : 0) : null;
  }

  /** The base URLs served, for the log: {@code http://host:port/} and/or {@code https://host:port/}. */
  public String urls() {
    StringBuilder out = new StringBuilder();
    if (servesHttp) {
      out.append("http://").append(httpAddress().getHostString()).append(':').append(httpAddress().getPort()).append('/');
    }
    if (servesHttps) {
      out.append(out.length() == 0 ? "" : " ").append("https://").append(httpsAddress().getHostString()).append(':')
          .append(httpsAddress().getPort()).append('/');
    }
    return out.toString();
  }

  @Override
  public void close() throws IOException {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IOException("stopping the web server: " + e.getMessage(), e);
    }
  }
}
