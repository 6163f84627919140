package org.bulwark.hdfs.monitor.web;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.bulwark.hdfs.monitor.advisor.DirectoryCost;
import org.bulwark.hdfs.monitor.advisor.ErasureCodingLayout;
import org.bulwark.hdfs.monitor.advisor.StorageCostAdvisor;
import org.bulwark.hdfs.monitor.collect.DataNodeReplicas;
import org.bulwark.hdfs.monitor.collect.MonitorStatus;
import org.bulwark.hdfs.monitor.collect.NamespaceSummary;
import org.bulwark.hdfs.monitor.health.CheckResult;
import org.bulwark.hdfs.monitor.health.HealthChecker;
import org.bulwark.hdfs.monitor.health.HealthReport;
import org.bulwark.hdfs.monitor.history.StateSpan;
import org.bulwark.hdfs.monitor.store.HistoryStore;

/**
 * The JSON API the pages are built on (documented in the repository README):
 * {@code /api/overview}, {@code /api/block?id=N | ?path=P}, {@code /api/datanode?id=UUID-or-host},
 * {@code /api/rack?rack=R}, {@code /api/forensics}, {@code /api/advisor}, {@code /api/trends?hours=H},
 * {@code /api/heatmap}, {@code /api/health}. Parameters are validated
 * (400 with a one-line message naming the parameter) and every query is parameterised.
 */
public final class ApiServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final int LIMIT = 1000;
  /** Replica spans a DataNode page shows unless asked for more. */
  public static final int DEFAULT_PAGE = 200;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    HistoryStore store = (HistoryStore) getServletContext().getAttribute(MonitorHttpServer.STORE);
    MonitorStatus status = (MonitorStatus) getServletContext().getAttribute(MonitorHttpServer.STATUS);
    String what = req.getPathInfo() == null ? "" : req.getPathInfo();
    Object body;
    try {
      switch (what) {
        case "/overview":
          body = overview(store, status);
          break;
        case "/block":
          body = block(store, req);
          break;
        case "/datanode":
          body = dataNode(store, required(req, "id"), limit(req));
          break;
        case "/rack":
          body = rack(store, required(req, "rack"));
          break;
        case "/forensics":
          body = store.forensics(LIMIT);
          break;
        case "/trends":
          body = trends(store, req);
          break;
        case "/heatmap":
          body = heatmap(store, status);
          break;
        case "/health":
          body = health((HealthChecker) getServletContext().getAttribute(MonitorHttpServer.HEALTH));
          break;
        case "/advisor":
          body = advisor(status.advisor());
          break;
        default:
          throw new BadRequest("unknown API '" + what + "': expected /api/overview, /api/block, /api/datanode, "
              + "/api/rack, /api/forensics, /api/advisor, /api/trends, /api/heatmap or /api/health");
      }
    } catch (BadRequest e) {
      send(resp, HttpServletResponse.SC_BAD_REQUEST, JSON.createObjectNode().put("error", e.getMessage()));
      return;
    } catch (IOException e) {
      send(resp, HttpServletResponse.SC_SERVICE_UNAVAILABLE,
          JSON.createObjectNode().put("error", "the history store cannot answer now"));
      return;
    }
    send(resp, HttpServletResponse.SC_OK, body);
  }

  private static void send(HttpServletResponse resp, int code, Object body) throws IOException {
    resp.setStatus(code);
    resp.setContentType("application/json; charset=utf-8");
    resp.setHeader("Cache-Control", "no-store");
    JSON.writeValue(resp.getOutputStream(), body);
  }

  /** A request the API cannot answer as asked. */
  private static final class BadRequest extends Exception {
    private static final long serialVersionUID = 1L;

    BadRequest(String message) {
      super(message);
    }
  }

  private static String required(HttpServletRequest req, String name) throws BadRequest {
    String v = req.getParameter(name);
    if (v == null || v.trim().isEmpty()) {
      throw new BadRequest("parameter '" + name + "' is required");
    }
    if (v.length() > 4096) {
      throw new BadRequest("parameter '" + name + "' is longer than 4096 characters");
    }
    return v.trim();
  }

  private static Object block(HistoryStore store, HttpServletRequest req) throws BadRequest, IOException {
    String id = req.getParameter("id");
    String path = req.getParameter("path");
    if (id != null && !id.trim().isEmpty()) {
      try {
        return store.blockHistory(Long.parseLong(id.trim().replaceFirst("^blk_", "").replaceFirst("_\\d+$", "")));
      } catch (NumberFormatException e) {
        throw new BadRequest("parameter 'id' must be a block id such as 1073741825 or blk_1073741825");
      }
    }
    if (path != null && path.startsWith("/") && path.length() <= 4096) {
      return store.fileHistory(path);
    }
    throw new BadRequest("give 'id' (a block id) or 'path' (an absolute file path)");
  }

  /** {@code limit}: how many of a DataNode's newest replica spans to return (default 200). */
  private static int limit(HttpServletRequest req) throws BadRequest {
    String v = req.getParameter("limit");
    if (v == null || v.trim().isEmpty()) {
      return DEFAULT_PAGE;
    }
    try {
      int n = Integer.parseInt(v.trim());
      if (n >= 1 && n <= LIMIT) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new BadRequest("parameter 'limit' must be a whole number from 1 to " + LIMIT);
  }

  private static ObjectNode dataNode(HistoryStore store, String id, int limit) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    out.set("states", JSON.valueToTree(store.dataNodeStates(id)));
    out.set("replicas", JSON.valueToTree(store.dataNodeReplicas(id, limit)));
    out.set("soleReplicas", JSON.valueToTree(store.soleReplicas(id, false, LIMIT)));
    return out;
  }

  private static ObjectNode rack(HistoryStore store, String rack) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    out.put("rack", rack);
    out.set("soleReplicas", JSON.valueToTree(store.soleReplicas(rack, true, LIMIT)));
    return out;
  }

  private static ObjectNode overview(HistoryStore store, MonitorStatus status) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    long now = System.currentTimeMillis();
    out.put("now", now);
    out.put("store", store.describe());
    out.put("lastPollFinished", status.lastPollFinished());
    out.put("stalenessSeconds", status.lastPollFinished() == 0 ? -1 : (now - status.lastPollFinished()) / 1000);
    out.put("polls", status.polls());
    out.put("failedPolls", status.failedPolls());
    out.put("pollInProgress", status.pollInProgress());
    out.put("pollStartedAt", status.pollStartedAt());
    out.put("lastPollMillis", status.lastPollMillis());
    if (status.lastError() != null) {
      out.put("lastError", status.lastError());
      out.put("lastErrorAt", status.lastErrorAt());
    }
    List<StateSpan> dns = store.currentDataNodes();
    ArrayNode nodes = out.putArray("dataNodes");
    Map<String, long[]> racks = new TreeMap<>();
    List<Double> dnUtil = new ArrayList<>();
    for (StateSpan d : dns) {
      double pct = d.capacity == 0 ? 0 : 100.0 * d.used / d.capacity;
      nodes.addObject().put("id", d.dataNode).put("host", d.host).put("rack", d.rack).put("state", d.state)
          .put("capacity", d.capacity).put("used", d.used).put("utilisation", pct);
      if (!"dead".equals(d.state)) {
        dnUtil.add(pct);
        long[] r = racks.computeIfAbsent(d.rack, k -> new long[2]);
        r[0] += d.capacity;
        r[1] += d.used;
      }
    }
    ArrayNode rackNodes = out.putArray("racks");
    List<Double> rackUtil = new ArrayList<>();
    for (Map.Entry<String, long[]> r : racks.entrySet()) {
      double pct = r.getValue()[0] == 0 ? 0 : 100.0 * r.getValue()[1] / r.getValue()[0];
      rackUtil.add(pct);
      rackNodes.addObject().put("rack", r.getKey()).put("capacity", r.getValue()[0]).put("used", r.getValue()[1])
          .put("utilisation", pct);
    }
    out.put("dataNodeUtilisationStdDev", stdDev(dnUtil));
    out.put("rackUtilisationStdDev", stdDev(rackUtil));
    ArrayNode namespaces = out.putArray("namespaces");
    Map<Integer, Long> byRacks = new TreeMap<>();
    long missing = 0;
    long corrupt = 0;
    for (NamespaceSummary s : status.lastScans().values()) {
      namespaces.addObject().put("uri", s.namespace).put("files", s.files).put("blocks", s.blocks)
          .put("replicas", s.replicas).put("missing", s.missing).put("corrupt", s.corrupt)
          .put("scanMillis", s.finished - s.started).put("rpcs", s.rpcs).put("finished", s.finished);
      s.blocksByRackCount.forEach((k, v) -> byRacks.merge(k, v, Long::sum));
      missing += s.missing;
      corrupt += s.corrupt;
    }
    ObjectNode br = out.putObject("blocksByRackCount");
    long threePlus = 0;
    for (Map.Entry<Integer, Long> e : byRacks.entrySet()) {
      if (e.getKey() >= 3) {
        threePlus += e.getValue();
      } else {
        br.put(Integer.toString(e.getKey()), e.getValue());
      }
    }
    br.put("3+", threePlus);
    out.put("missingBlocks", missing);
    out.put("corruptBlocks", corrupt);
    return out;
  }

  private static double stdDev(List<Double> values) {
    if (values.isEmpty()) {
      return 0;
    }
    double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double var = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / values.size();
    return Math.sqrt(var);
  }

  /** Most points a chart's series gets, whatever the range asked. */
  private static final int CHART_POINTS = 500;
  /** The longest range a chart may ask: the default retention. */
  private static final int MAX_HOURS = 90 * 24;

  /** Poll figures and rack fill over the last {@code hours} (1 to 2,160, default 24). */
  private static ObjectNode trends(HistoryStore store, HttpServletRequest req) throws BadRequest, IOException {
    int hours = 24;
    String v = req.getParameter("hours");
    if (v != null && !v.trim().isEmpty()) {
      try {
        hours = Integer.parseInt(v.trim());
      } catch (NumberFormatException e) {
        hours = -1;
      }
      if (hours < 1 || hours > MAX_HOURS) {
        throw new BadRequest("parameter 'hours' must be a whole number from 1 to " + MAX_HOURS);
      }
    }
    long now = System.currentTimeMillis();
    long since = now - hours * 3_600_000L;
    ObjectNode out = JSON.createObjectNode();
    out.put("since", since).put("until", now);
    out.putArray("pollColumns").add("time").add("blocks").add("missing").add("corrupt").add("oneRack").add("twoRacks")
        .add("moreRacks");
    out.set("polls", TrendSeries.polls(JSON, store.trends(since, now, CHART_POINTS)));
    out.set("rackUtilisation", TrendSeries.racks(JSON, store.rackFill(since, now, CHART_POINTS)));
    return out;
  }

  /**
   * Replicas per DataNode at the last poll (every namespace summed), grouped by rack: the heat map. Every
   * DataNode not dead is in it, an empty one with 0: the cell an operator looks for.
   */
  private static ObjectNode heatmap(HistoryStore store, MonitorStatus status) throws IOException {
    Map<String, Map<String, Long>> byRack = new TreeMap<>();
    for (StateSpan d : store.currentDataNodes()) {
      if (!"dead".equals(d.state)) {
        byRack.computeIfAbsent(d.rack, r -> new TreeMap<>()).put(d.host, 0L);
      }
    }
    for (NamespaceSummary s : status.lastScans().values()) {
      for (DataNodeReplicas d : s.byDataNode.values()) {
        byRack.computeIfAbsent(d.rack, r -> new TreeMap<>()).merge(d.host, d.replicas(), Long::sum);
      }
    }
    ObjectNode out = JSON.createObjectNode();
    ArrayNode racks = out.putArray("racks");
    byRack.forEach((rack, hosts) -> {
      ObjectNode r = racks.addObject().put("rack", rack);
      ArrayNode nodes = r.putArray("dataNodes");
      hosts.forEach((host, n) -> nodes.addObject().put("host", host).put("replicas", n));
    });
    return out;
  }

  /**
   * The latest round of health checks. Always 200 when the monitor answers: the status inside is the
   * cluster's, and a 503 would read as the monitor itself being down.
   */
  private static ObjectNode health(HealthChecker checker) throws BadRequest {
    if (checker == null) {
      throw new BadRequest("health checks are not running in this server");
    }
    HealthReport report = checker.latest();
    ObjectNode out = JSON.createObjectNode();
    out.put("status", report.overall().name());
    out.put("code", report.overall().code());
    out.put("checkedAt", report.checkedAt);
    ArrayNode checks = out.putArray("checks");
    for (CheckResult c : report.checks) {
      ObjectNode n = checks.addObject().put("check", c.check).put("namespace", c.namespace).put("status", c.severity.name())
          .put("reason", c.reason);
      if (!Double.isNaN(c.value)) {
        n.put("value", c.value);
      }
    }
    return out;
  }

  /** The last complete poll's advice (computed once per poll, never per request). */
  private static ObjectNode advisor(StorageCostAdvisor advisor) {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode policies = out.putArray("policies");
    ArrayNode dirs = out.putArray("directories");
    if (advisor == null) {
      out.put("computed", false);
      return out;
    }
    out.put("computed", true);
    for (ErasureCodingLayout p : advisor.policies()) {
      String whyNot = advisor.whyNot(p);
      ObjectNode n = policies.addObject().put("name", p.name()).put("dataUnits", p.dataUnits()).put("parityUnits", p.parityUnits())
          .put("cellSize", p.cellSize()).put("racksToSurviveOneRack", p.racksToSurviveOneRack())
          .put("racksForOneCellPerRack", p.racksForOneCellPerRack()).put("clusterCanHold", whyNot == null);
      if (whyNot != null) {
        n.put("whyNot", whyNot);
      }
    }
    for (DirectoryCost d : advisor.byPath()) {
      ObjectNode n = dirs.addObject().put("path", d.path()).put("files", d.files()).put("logicalBytes", d.logicalBytes())
          .put("rawBytesToday", d.rawBytesToday());
      ErasureCodingLayout best = advisor.recommended(d);
      if (best != null) {
        n.put("recommended", best.name());
      } else {
        n.putNull("recommended");
      }
      ObjectNode per = n.putObject("policies");
      for (ErasureCodingLayout p : advisor.policies()) {
        per.putObject(p.name()).put("rawBytes", d.rawBytes(p.name())).put("savedBytes", d.savedBytes(p.name()))
            .put("filesCostlier", d.filesCostlier(p.name()));
      }
    }
    return out;
  }
}
