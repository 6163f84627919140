package org.bulwark.hdfs.monitor.web;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpServer2;
import org.bulwark.hdfs.monitor.collect.MonitorStatus;
import org.bulwark.hdfs.monitor.store.HistoryStore;

/**
 * The monitor's web server: Hadoop's {@link HttpServer2} (so {@code /jmx}, {@code /conf},
 * {@code /logLevel} and {@code /stacks} come with it, and Hadoop's authentication filters apply), the
 * pages in {@code webapps/blockmonitor} and the JSON API under {@code /api/}.
 */
public final class MonitorHttpServer implements Closeable {
  static final String STORE = "bulwark.monitor.store";
  static final String STATUS = "bulwark.monitor.status";
  static final String ADVISOR_DEPTH = "bulwark.monitor.advisor.depth";

  private final HttpServer2 server;

  public MonitorHttpServer(Configuration conf, String hostPort, HistoryStore store, MonitorStatus status, int advisorDepth)
      throws IOException {
    this.server = new HttpServer2.Builder().setName("blockmonitor").setConf(conf)
        .addEndpoint(URI.create("http://" + hostPort)).setFindPort(false).build();
    server.setAttribute(STORE, store);
    server.setAttribute(STATUS, status);
    server.setAttribute(ADVISOR_DEPTH, advisorDepth);
    server.addServlet("api", "/api/*", ApiServlet.class);
    server.getWebAppContext().setErrorHandler(new PlainErrorHandler());
  }

  public void start() throws IOException {
    server.start();
    // Requests Jetty rejects before any context (unparsable URIs, oversized headers) get the same answer.
    server.getWebAppContext().getServer().setErrorHandler(new PlainErrorHandler());
  }

  public InetSocketAddress address() {
    return server.getConnectorAddress(0);
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
