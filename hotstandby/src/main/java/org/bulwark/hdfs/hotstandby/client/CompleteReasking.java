package org.bulwark.hdfs.hotstandby.client;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Asks a NameNode's {@code complete} again, briefly, when it answers "not yet" soon after a failover.
 *
 * <p>Why: a client closing a file calls {@code complete}, which is true only once a DataNode has reported the
 * last block. That report travels on its own, so {@code complete} can lose the race; the stock client then
 * sleeps {@code dfs.client.block.write.locateFollowingBlock.initial.delay.ms} (400 ms) before asking again.
 * Right after a failover the new active NameNode loses that race often (the blocks written across the
 * failover were reported to it while it was standby, or are reported while it is busy), so a file closed
 * across a failover usually waits 400 ms more than the failover itself. Within
 * {@code window} of the provider's last failover this handler asks again every {@code step} for at most
 * {@code budget}, then hands the "not yet" to the stock client as before. Outside that window, and for
 * every other call, it only passes the call on: steady-state behaviour is the stock client's.
 *
 * <p>{@code complete} is idempotent (the NameNode marks it so), so asking again is safe.
 */
public final class CompleteReasking implements InvocationHandler {
  /** What {@code lastFailoverNanos} gives before any failover (a nanoTime of 0 is a time like any other). */
  public static final long NEVER = Long.MIN_VALUE;

  private final Object target;
  private final long budgetNanos;
  private final long stepNanos;
  private final long windowNanos;
  private final LongSupplier lastFailoverNanos;

  private CompleteReasking(Object target, long budgetMillis, long stepMillis, long windowMillis,
      LongSupplier lastFailoverNanos) {
    this.target = target;
    this.budgetNanos = TimeUnit.MILLISECONDS.toNanos(budgetMillis);
    this.stepNanos = TimeUnit.MILLISECONDS.toNanos(stepMillis);
    this.windowNanos = TimeUnit.MILLISECONDS.toNanos(windowMillis);
    this.lastFailoverNanos = lastFailoverNanos;
  }

  /**
   * {@code target} behind a proxy with every interface it implements (so Hadoop's RPC helpers, which look
   * for {@code ProtocolTranslator} and {@code Closeable}, see what they saw before), asking {@code complete}
   * again as described above.
   *
   * @param lastFailoverNanos {@code System.nanoTime()} of the provider's last failover; {@link #NEVER} before
   *     the first
   */
  @SuppressWarnings("unchecked")
  public static <T> T wrap(T target, long budgetMillis, long stepMillis, long windowMillis,
      LongSupplier lastFailoverNanos) {
    Set<Class<?>> interfaces = new LinkedHashSet<>();
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      addAll(c.getInterfaces(), interfaces);
    }
    return (T) Proxy.newProxyInstance(target.getClass().getClassLoader(), interfaces.toArray(new Class<?>[0]),
        new CompleteReasking(target, budgetMillis, stepMillis, windowMillis, lastFailoverNanos));
  }

  private static void addAll(Class<?>[] found, Set<Class<?>> into) {
    for (Class<?> i : found) {
      if (into.add(i)) {
        addAll(i.getInterfaces(), into);
      }
    }
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    Object answer = pass(method, args);
    if (!isComplete(method) || Boolean.TRUE.equals(answer) || !soonAfterFailover()) {
      return answer;
    }
    long deadline = System.nanoTime() + budgetNanos;
    while (Boolean.FALSE.equals(answer) && deadline - System.nanoTime() > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(Math.min(stepNanos, Math.max(0, deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the stock client's own sleep then ends the close
        return answer;
      }
      answer = pass(method, args);
    }
    return answer;
  }

  private Object pass(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static boolean isComplete(Method method) {
    return method.getName().equals("complete") && method.getReturnType() == boolean.class;
  }

  private boolean soonAfterFailover() {
    long last = lastFailoverNanos.getAsLong();
    return budgetNanos > 0 && last != NEVER && System.nanoTime() - last < windowNanos;
  }
}
