package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.bulwark.hdfs.testkit.ForkedJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host-wide cap on client ZooKeeper sessions: slots are file locks, shared by JVMs, freed when a JVM ends. */
class HostSessionSlotsIT {
  @Test
  void noMoreSlotsThanTheCapAndAFreedSlotIsTakenAgain(@TempDir Path dir) {
    File file = dir.resolve("slots").toFile();
    HostSessionSlots.Slot a = new HostSessionSlots(file, 2).tryAcquire();
    HostSessionSlots.Slot b = new HostSessionSlots(file, 2).tryAcquire();
    assertNotNull(a);
    assertNotNull(b);
    assertNull(new HostSessionSlots(file, 2).tryAcquire(), "both slots held");
    a.close();
    HostSessionSlots.Slot c = new HostSessionSlots(file, 2).tryAcquire();
    assertNotNull(c, "a freed slot is taken again");
    b.close();
    c.close();
  }

  @Test
  void noCapWhenZeroOrWhenTheFileCannotBeUsed(@TempDir Path dir) {
    assertNotNull(new HostSessionSlots(dir.resolve("slots").toFile(), 0).tryAcquire());
    assertNotNull(HostSessionSlots.unlimited().tryAcquire());
    File noDirectory = dir.resolve("missing/slots").toFile();
    HostSessionSlots.Slot s = new HostSessionSlots(noDirectory, 1).tryAcquire();
    assertNotNull(s, "without a usable file there is no cap");
    assertNotNull(new HostSessionSlots(noDirectory, 1).tryAcquire());
  }

  /** Another JVM holds the one slot until it is killed (kill -9): the operating system frees it. */
  @Test
  void aSlotHeldByAnotherJvmIsFreedWhenThatJvmIsKilled(@TempDir Path dir) throws Exception {
    File file = dir.resolve("slots").toFile();
    File log = dir.resolve("holder.log").toFile();
    Process holder = ForkedJvm.start(SlotHolder.class, log, file.getPath());
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.readAllLines(log.toPath()).contains("holding") && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertEquals(List.of("holding"), Files.readAllLines(log.toPath()));
      assertNull(new HostSessionSlots(file, 1).tryAcquire(), "the other JVM holds the slot");
    } finally {
      holder.destroyForcibly().waitFor();
    }
    HostSessionSlots.Slot mine = new HostSessionSlots(file, 1).tryAcquire();
    assertNotNull(mine, "freed by the killed JVM's end");
    mine.close();
  }

  /** The other JVM of {@link #aSlotHeldByAnotherJvmIsFreedWhenThatJvmIsKilled}. */
  public static final class SlotHolder {
    public static void main(String[] args) throws Exception {
      HostSessionSlots.Slot slot = new HostSessionSlots(new File(args[0]), 1).tryAcquire();
      System.out.println(slot == null ? "no slot" : "holding");
      Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }
  }
}
