package org.bulwark.hdfs.monitor.web;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An HTTP/1.1 client that sends the request target byte for byte as given (bad percent escapes, raw
 * non-ASCII bytes, {@code ..} segments: what {@code HttpURLConnection} would refuse or rewrite) over one
 * kept-alive connection, reopened whenever the server closes it.
 */
final class RawHttpClient implements Closeable {
  /** A response: status code and body. */
  static final class Response {
    final int status;
    final String body;

    Response(int status, String body) {
      this.status = status;
      this.body = body;
    }
  }

  private final InetSocketAddress server;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  RawHttpClient(InetSocketAddress server) {
    this.server = server;
  }

  Response get(byte[] target) throws IOException {
    try {
      return exchange(target);
    } catch (IOException e) {
      // The server closed the kept-alive connection (after an error response, say): once more on a new one.
      close();
      return exchange(target);
    }
  }

  private Response exchange(byte[] target) throws IOException {
    if (socket == null) {
      socket = new Socket();
      socket.connect(server, 5000);
      socket.setSoTimeout(30_000);
      in = new BufferedInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    }
    ByteArrayOutputStream req = new ByteArrayOutputStream();
    req.write("GET ".getBytes(StandardCharsets.US_ASCII));
    req.write(target);
    req.write((" HTTP/1.1\r\nHost: " + server.getHostString() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(req.toByteArray());
    out.flush();
    String statusLine = line();
    if (statusLine == null) {
      throw new IOException("connection closed");
    }
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    long length = -1;
    boolean chunked = false;
    boolean closeAfter = false;
    for (String h = line(); h != null && !h.isEmpty(); h = line()) {
      String lower = h.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lower.substring(15).trim());
      } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
        chunked = true;
      } else if (lower.startsWith("connection:") && lower.contains("close")) {
        closeAfter = true;
      }
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (chunked) {
      for (long n = Long.parseLong(line().split(";")[0].trim(), 16); n > 0; n = Long.parseLong(line().split(";")[0].trim(), 16)) {
        copy(n, body);
        line();
      }
      line();
    } else if (length >= 0) {
      copy(length, body);
    } else {
      in.transferTo(body);
      closeAfter = true;
    }
    if (closeAfter) {
      close();
    }
    return new Response(status, body.toString(StandardCharsets.UTF_8));
  }

  private void copy(long n, ByteArrayOutputStream to) throws IOException {
    byte[] buf = new byte[8192];
    while (n > 0) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, n));
      if (r < 0) {
        throw new IOException("connection closed mid-body");
      }
      to.write(buf, 0, r);
      n -= r;
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
      }
      if (c != '\r') {
        b.write(c);
      }
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
      socket = null;
    }
  }
}
