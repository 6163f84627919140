package org.bulwark.hdfs.hotstandby;

import java.util.Arrays;

/**
 * {@code hdfs hotstandby} whose JVM halts (exit 137, no shutdown hook) right after the activation step named by its
 * first argument ({@code LOCKED}, {@code FENCED}, {@code TRANSITIONED}, {@code PUBLISHED}), as a kill -9 there would;
 * the rest are the daemon's own arguments. Forked by tests that check what the next leader does about what it left.
 */
public final class HaltingController {
  private HaltingController() {
  }

  public static void main(String[] args) {
    String at = args[0];
    HotStandbyController controller = new HotStandbyController();
    controller.injectActivationFaults(step -> {
      if (step.equals(at)) {
        Runtime.getRuntime().halt(137);
      }
    });
    System.exit(HotStandbyController.runMain(controller, Arrays.copyOfRange(args, 1, args.length), System.err));
  }
}
