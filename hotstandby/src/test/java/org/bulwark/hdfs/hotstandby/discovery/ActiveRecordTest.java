package org.bulwark.hdfs.hotstandby.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ActiveRecordTest {
  private final ActiveRecord record = new ActiveRecord("ns1", "nn2", "nn2.example.com:8020", 7, 1_700_000_000_000L, ActiveRecord.State.ACTIVE, 0);

  @Test
  void roundTrips() {
    assertEquals(record, ActiveRecord.decode(record.encode()));
    ActiveRecord failed = record.failedAt(123);
    assertEquals(failed, ActiveRecord.decode(failed.encode()));
    assertTrue(failed.isActive(), "a failed NameNode is still to be fenced");
    ActiveRecord left = record.relinquished();
    assertFalse(ActiveRecord.decode(left.encode()).isActive());
    assertTrue(left.needsNoFencing());
    ActiveRecord exited = record.exited(456);
    assertEquals(exited, ActiveRecord.decode(exited.encode()));
    assertFalse(exited.isActive(), "clients do not call a NameNode whose process ended");
    assertTrue(exited.needsNoFencing());
    assertFalse(failed.needsNoFencing());
  }

  @Test
  void isReadableText() {
    String text = new String(record.encode(), StandardCharsets.UTF_8);
    assertTrue(text.contains("namenode=nn2\n"), text);
    assertTrue(text.contains("rpc=nn2.example.com:8020\n"), text);
    assertTrue(text.contains("epoch=7\n"), text);
  }

  @Test
  void readsWhatOlderControllersWrote() {
    // Controllers before 0.1.0 also wrote the service RPC and HTTP addresses; a reader ignores them.
    String older = "nameservice=ns1\nnamenode=nn2\nrpc=nn2.example.com:8020\nservicerpc=nn2.example.com:8022\n"
        + "http=nn2.example.com:9870\nepoch=7\nsince=1700000000000\nstate=ACTIVE\nfailedAt=0\n";
    assertEquals(record, ActiveRecord.decode(older.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void badRecordsNameWhatIsWrong() {
    assertEquals("empty active-NameNode record",
        assertThrows(IllegalArgumentException.class, () -> ActiveRecord.decode(new byte[0])).getMessage());
    assertEquals("active-NameNode record lacks 'rpc'", assertThrows(IllegalArgumentException.class,
        () -> ActiveRecord.decode("nameservice=ns1\nnamenode=nn1\n".getBytes(StandardCharsets.UTF_8))).getMessage());
    assertEquals("active-NameNode record has 'epoch=x', not a number", assertThrows(IllegalArgumentException.class,
        () -> ActiveRecord.decode(("nameservice=ns1\nnamenode=nn1\nrpc=h:1\nepoch=x\nsince=1\nstate=ACTIVE\n")
            .getBytes(StandardCharsets.UTF_8))).getMessage());
    assertEquals("active-NameNode record has 'state=LEADER', expected ACTIVE, RELINQUISHED or EXITED",
        assertThrows(IllegalArgumentException.class, () -> ActiveRecord.decode(
            ("nameservice=ns1\nnamenode=nn1\nrpc=h:1\nepoch=1\nsince=1\nstate=LEADER\n").getBytes(StandardCharsets.UTF_8)))
            .getMessage());
  }
}
