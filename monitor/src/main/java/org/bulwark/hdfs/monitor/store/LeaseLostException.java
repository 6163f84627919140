package org.bulwark.hdfs.monitor.store;

import java.io.IOException;

/**
 * Another monitor has taken this store's writer lease over (this one was hung or cut off for longer than the
 * lease timeout): the write was rolled back, and the store refuses every write after it. Not a passing
 * outage, so the poller stops rather than try again.
 */
public final class LeaseLostException extends IOException {
  private static final long serialVersionUID = 1L;

  LeaseLostException(String message) {
    super(message);
  }
}
