package org.bulwark.hdfs.hotstandby.controller;

import java.io.IOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.bulwark.hdfs.hotstandby.discovery.ActiveRecord;
import org.bulwark.hdfs.hotstandby.health.HaServiceProxies;

/**
 * The NameNode a controller runs beside: its identity and addresses (what the active record
 * publishes) and the two transitions, sent as {@code REQUEST_BY_ZKFC} so a NameNode with
 * {@code dfs.ha.automatic-failover.enabled=true} accepts them.
 */
public final class LocalNameNode implements Activation.Target {
  private static final StateChangeRequestInfo BY_CONTROLLER = new StateChangeRequestInfo(RequestSource.REQUEST_BY_ZKFC);

  private final Configuration conf;
  private final String nameservice;
  private final String nameNodeId;
  private final InetSocketAddress serviceAddress;
  private final String rpcAddress;
  private final long transitionTimeoutMillis;

  public LocalNameNode(Configuration conf, String nameservice, String nameNodeId, InetSocketAddress serviceAddress,
      String rpcAddress, long transitionTimeoutMillis) {
    this.conf = conf;
    this.nameservice = nameservice;
    this.nameNodeId = nameNodeId;
    this.serviceAddress = serviceAddress;
    this.rpcAddress = rpcAddress;
    this.transitionTimeoutMillis = transitionTimeoutMillis;
  }

  public String nameservice() {
    return nameservice;
  }

  @Override
  public String nameNodeId() {
    return nameNodeId;
  }

  /** The NameNode's client RPC address, host:port. */
  public String rpcAddress() {
    return rpcAddress;
  }

  @Override
  public void transitionToActive() throws IOException {
    HaServiceProxies.call(conf, serviceAddress, transitionTimeoutMillis, p -> p.transitionToActive(BY_CONTROLLER));
  }

  public void transitionToStandby() throws IOException {
    HaServiceProxies.call(conf, serviceAddress, transitionTimeoutMillis, p -> p.transitionToStandby(BY_CONTROLLER));
  }

  /** The record a leader publishes once this NameNode is active. */
  @Override
  public ActiveRecord activeRecord(long epoch, long sinceMillis) {
    return new ActiveRecord(nameservice, nameNodeId, rpcAddress, epoch, sinceMillis, ActiveRecord.State.ACTIVE, 0);
  }

  @Override
  public String toString() {
    return nameservice + "." + nameNodeId + " (" + serviceAddress + ")";
  }
}
