package org.bulwark.hdfs.hotstandby;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ServicePlugin;

/**
 * A test-only NameNode plugin ({@code dfs.namenode.plugins}) that holds the namesystem write lock on request, as a long
 * {@code rollEditLog} or an FSImage transfer does, for a NameNode in a JVM of its own: the test writes the hold's
 * milliseconds into {@link #trigger} for that NameNode's RPC port, the plugin takes the lock, holds it, and writes
 * {@code done} beside it. Only tests put it on a NameNode.
 */
public final class WriteLockHold implements ServicePlugin {
  /** The directory the test writes triggers into. */
  static final String DIRECTORY_KEY = "bulwark.test.write-lock-hold.dir";

  private volatile boolean running = true;
  private Thread thread;

  /** The file that asks the NameNode on {@code rpcPort} to hold its write lock. */
  static File trigger(File directory, int rpcPort) {
    return new File(directory, "hold-" + rpcPort);
  }

  static File done(File directory, int rpcPort) {
    return new File(directory, "held-" + rpcPort);
  }

  @Override
  public void start(Object service) {
    NameNode nameNode = (NameNode) service;
    File directory = new File(nameNode.getConf().get(DIRECTORY_KEY));
    int port = nameNode.getNameNodeAddress().getPort();
    thread = new Thread(() -> watch(nameNode, trigger(directory, port), done(directory, port)), "write-lock-hold");
    thread.setDaemon(true);
    thread.start();
  }

  private void watch(NameNode nameNode, File trigger, File done) {
    while (running) {
      try {
        if (trigger.exists()) {
          long millis = Long.parseLong(new String(Files.readAllBytes(trigger.toPath()), StandardCharsets.UTF_8).trim());
          Files.delete(trigger.toPath());
          FSNamesystem namesystem = nameNode.getNamesystem();
          namesystem.writeLock();
          try {
            TimeUnit.MILLISECONDS.sleep(millis);
          } finally {
            namesystem.writeUnlock();
          }
          Files.write(done.toPath(), Long.toString(millis).getBytes(StandardCharsets.UTF_8));
        }
        TimeUnit.MILLISECONDS.sleep(2);
      } catch (InterruptedException e) {
        return;
      } catch (IOException | NumberFormatException e) {
        // A trigger half written: read again on the next turn.
      }
    }
  }

  @Override
  public void stop() {
    running = false;
    if (thread != null) {
      thread.interrupt();
    }
  }

  @Override
  public void close() {
    stop();
  }
}
