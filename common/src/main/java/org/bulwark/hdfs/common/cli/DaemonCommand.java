package org.bulwark.hdfs.common.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The command line every Bulwark daemon ({@code hdfs hotstandby}, {@code hdfs blockmonitor}) shares: no
 * arguments of its own beyond Hadoop's generic options, {@code -help}, run until the JVM is asked to
 * stop (then close cleanly), and a configuration it cannot run with reported as one line naming the
 * problem with exit code 1.
 */
public final class DaemonCommand {
  /** A daemon: started once, closed once. */
  public interface Daemon {
    void start() throws Exception;

    void close();
  }

  private DaemonCommand() {
  }

  /** What a daemon's {@code Tool.run} does: checks the arguments, starts, waits for the JVM to stop. */
  public static int runUntilStopped(String command, String usage, String[] args, Daemon daemon) throws Exception {
    for (String arg : args) {
      if ("-help".equals(arg) || "-h".equals(arg)) {
        System.out.println(usage);
        return 0;
      }
      System.err.println(command + ": unknown argument '" + arg + "'. " + usage);
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      daemon.close();
      stopped.countDown();
    }, command + "-shutdown"));
    daemon.start();
    stopped.await();
    return 0;
  }

  /** What a daemon's {@code main} does (without exiting): runs the tool, one line on {@code err} if it cannot start. */
  public static int main(String command, Configuration conf, Tool tool, String[] args, PrintStream err) {
    try {
      return ToolRunner.run(conf, tool, args);
    } catch (IllegalArgumentException e) {
      err.println(command + ": " + e.getMessage());
      return 1;
    } catch (Exception e) {
      err.println(command + ": " + (e.getMessage() == null ? e.toString() : e.getMessage().split("\n")[0]));
      return 1;
    }
  }
}
