/**
 * The monitor's web UI and JSON API: {@link org.bulwark.hdfs.monitor.web.MonitorHttpServer} serves the pages and
 * the {@code /api/} queries of {@link org.bulwark.hdfs.monitor.web.ApiServlet} (parameters validated, one-line
 * errors), lets only {@code bulwark.monitor.http.administrators} in
 * ({@link org.bulwark.hdfs.monitor.web.AdminAccessFilter}), and answers errors without Jetty's stack traces. The
 * server itself, {@code /jmx} and the other standard pages, and authentication (SPNEGO) are Hadoop's
 * {@code HttpServer2} and its filters; the answers come from the history store and the poller's last scans.
 */
package org.bulwark.hdfs.monitor.web;
