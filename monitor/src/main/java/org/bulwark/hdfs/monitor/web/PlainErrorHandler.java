package org.bulwark.hdfs.monitor.web;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * The monitor's error responses: the status and its standard reason as JSON, nothing else. Jetty's own
 * error page lists the servlet and every exception in the cause chain ("CAUSED BY:
 * java.lang.IllegalArgumentException: ..."), which tells a prober what runs inside; the request log and
 * the daemon's log keep the details.
 */
final class PlainErrorHandler extends ErrorHandler {
  PlainErrorHandler() {
    setShowStacks(false);
    setShowServlet(false);
    setShowMessageInTitle(false);
  }

  @Override
  protected void generateAcceptableResponse(Request baseRequest, HttpServletRequest request, HttpServletResponse response,
      int code, String message, String contentType) throws IOException {
    baseRequest.setHandled(true);
    response.setContentType("application/json; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    response.getOutputStream().write(body(code));
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields fields) {
    fields.put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
    return ByteBuffer.wrap(body(status));
  }

  private static byte[] body(int code) {
    String reason = HttpStatus.getMessage(code);
    return ("{\"error\": \"HTTP " + code + (reason == null ? "" : " " + reason) + "\"}\n").getBytes(StandardCharsets.UTF_8);
  }
}
