package org.bulwark.hdfs.hotstandby.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.ipc.ProtocolTranslator;
import org.junit.jupiter.api.Test;

/**
 * The re-asking around {@code complete}. The NameNode is scripted here: a real one answers "not yet" only when
 * a DataNode's report loses a race, which no test can arrange on demand.
 */
class CompleteReaskingTest {
  private static final long WINDOW = 10_000;

  /** A ClientProtocol (and ProtocolTranslator, Closeable, as Hadoop's translator is) with scripted answers. */
  private static final class ScriptedNameNode {
    final Deque<Object> completeAnswers = new ArrayDeque<>();
    final AtomicInteger completeCalls = new AtomicInteger();
    final Object underlying = new Object();
    final ClientProtocol proxy = (ClientProtocol) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ClientProtocol.class, ProtocolTranslator.class, Closeable.class}, (p, m, args) -> {
          switch (m.getName()) {
            case "complete":
              completeCalls.incrementAndGet();
              Object a = completeAnswers.isEmpty() ? Boolean.FALSE : completeAnswers.poll();
              if (a instanceof Exception) {
                throw (Exception) a;
              }
              return a;
            case "getFileInfo":
              throw new FileNotFoundException((String) args[0]);
            case "getUnderlyingProxyObject":
              return underlying;
            case "close":
              return null;
            default:
              throw new UnsupportedOperationException(m.getName());
          }
        });

    ScriptedNameNode answer(Object... answers) {
      completeAnswers.addAll(Arrays.asList(answers));
      return this;
    }
  }

  private static ClientProtocol wrap(ScriptedNameNode nn, long budgetMillis, long lastFailoverNanos) {
    return CompleteReasking.wrap(nn.proxy, budgetMillis, 1, WINDOW, () -> lastFailoverNanos);
  }

  private static boolean close(ClientProtocol p) throws Exception {
    return p.complete("/f", "client", null, 1);
  }

  @Test
  void soonAfterAFailoverNotYetIsAskedAgainUntilYes() throws Exception {
    ScriptedNameNode nn = new ScriptedNameNode().answer(false, false, true);
    assertTrue(close(wrap(nn, 60_000, System.nanoTime())));
    assertEquals(3, nn.completeCalls.get());
  }

  @Test
  void withoutAFailoverTheStockClientHearsNotYetAtOnce() throws Exception {
    ScriptedNameNode nn = new ScriptedNameNode().answer(false, true);
    assertFalse(close(wrap(nn, 60_000, CompleteReasking.NEVER)));
    assertEquals(1, nn.completeCalls.get());
  }

  @Test
  void longAfterAFailoverTheStockClientHearsNotYetAtOnce() throws Exception {
    ScriptedNameNode nn = new ScriptedNameNode().answer(false, true);
    long elevenSecondsAgo = System.nanoTime() - 11_000_000_000L;
    assertFalse(close(wrap(nn, 60_000, elevenSecondsAgo)));
    assertEquals(1, nn.completeCalls.get());
  }

  @Test
  void aBudgetOfZeroTurnsItOff() throws Exception {
    ScriptedNameNode nn = new ScriptedNameNode().answer(false, true);
    assertFalse(close(wrap(nn, 0, System.nanoTime())));
    assertEquals(1, nn.completeCalls.get());
  }

  @Test
  void whenTheBudgetIsSpentTheStockClientHearsNotYet() throws Exception {
    ScriptedNameNode nn = new ScriptedNameNode(); // "not yet" for ever
    assertFalse(close(wrap(nn, 30, System.nanoTime())));
    assertTrue(nn.completeCalls.get() > 1, "asked again within the budget");
  }

  @Test
  void errorsReachTheCallerAsTheNameNodeRaisedThem() throws Exception {
    FileNotFoundException gone = new FileNotFoundException("/f");
    ScriptedNameNode nn = new ScriptedNameNode().answer(false, gone);
    FileNotFoundException thrown = assertThrows(FileNotFoundException.class, () -> close(wrap(nn, 60_000, System.nanoTime())));
    assertSame(gone, thrown);
    assertThrows(FileNotFoundException.class, () -> wrap(nn, 60_000, System.nanoTime()).getFileInfo("/g"));
  }

  @Test
  void anInterruptEndsTheAskingAndStaysSet() throws Exception {
    ScriptedNameNode nn = new ScriptedNameNode();
    Thread.currentThread().interrupt();
    try {
      assertFalse(close(wrap(nn, 60_000, System.nanoTime())));
      assertTrue(Thread.currentThread().isInterrupted());
      assertEquals(1, nn.completeCalls.get());
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void hadoopsRpcHelpersStillFindTheTranslatorBehind() throws Exception {
    ScriptedNameNode nn = new ScriptedNameNode();
    ClientProtocol wrapped = wrap(nn, 60_000, System.nanoTime());
    assertTrue(wrapped instanceof Closeable);
    assertSame(nn.underlying, ((ProtocolTranslator) wrapped).getUnderlyingProxyObject());
  }
}
