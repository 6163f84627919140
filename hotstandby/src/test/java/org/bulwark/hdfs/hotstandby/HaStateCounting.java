package org.bulwark.hdfs.hotstandby;

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.hdfs.server.namenode.ha.NameNodeHAProxyFactory;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The stock factory's proxies, counting the HA-state questions asked through them; or, made {@link #unanswered},
 * failing each of them, so that a client can learn of a new active NameNode from ZooKeeper alone.
 */
final class HaStateCounting implements HAProxyFactory<ClientProtocol> {
  final HAProxyFactory<ClientProtocol> real = new NameNodeHAProxyFactory<>();
  final AtomicInteger questions = new AtomicInteger();
  private final boolean answered;

  HaStateCounting() {
    this(true);
  }

  private HaStateCounting(boolean answered) {
    this.answered = answered;
  }

  static HaStateCounting unanswered() {
    return new HaStateCounting(false);
  }

  @Override
  public ClientProtocol createProxy(Configuration conf, InetSocketAddress address, Class<ClientProtocol> xface,
      UserGroupInformation ugi, boolean withRetries, AtomicBoolean fallbackToSimpleAuth) throws IOException {
    return counting(real.createProxy(conf, address, xface, ugi, withRetries, fallbackToSimpleAuth));
  }

  @Override
  public ClientProtocol createProxy(Configuration conf, InetSocketAddress address, Class<ClientProtocol> xface,
      UserGroupInformation ugi, boolean withRetries) throws IOException {
    return counting(real.createProxy(conf, address, xface, ugi, withRetries));
  }

  private ClientProtocol counting(ClientProtocol target) {
    return (ClientProtocol) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ClientProtocol.class, Closeable.class}, (p, m, args) -> {
          if (m.getName().equals("close") && m.getDeclaringClass() == Closeable.class) {
            RPC.stopProxy(target);
            return null;
          }
          if (m.getName().equals("getHAServiceState")) {
            questions.incrementAndGet();
            if (!answered) {
              throw new IOException("not answered in this test");
            }
          }
          try {
            return m.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
