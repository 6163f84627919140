package org.bulwark.hdfs.hotstandby;

import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.hdfs.server.namenode.ha.ObserverReadProxyProvider;

/**
 * Hadoop's {@link ObserverReadProxyProvider} (reads from observer NameNodes) with writes and failover
 * going through {@link ZooKeeperFailoverProxyProvider}. Hadoop's class wraps
 * {@code ConfiguredFailoverProxyProvider} unless it is handed another provider, and the configuration
 * offers no way to hand one: this class is that hand.
 */
public class ZooKeeperObserverReadProxyProvider<T> extends ObserverReadProxyProvider<T> {
  public ZooKeeperObserverReadProxyProvider(Configuration conf, URI uri, Class<T> xface, HAProxyFactory<T> factory) {
    super(conf, uri, xface, factory, new ZooKeeperFailoverProxyProvider<>(conf, uri, xface, factory));
  }
}
