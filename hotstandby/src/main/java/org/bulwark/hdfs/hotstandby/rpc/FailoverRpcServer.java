package org.bulwark.hdfs.hotstandby.rpc;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.ZKFCProtocol;
import org.apache.hadoop.ha.proto.ZKFCProtocolProtos.ZKFCProtocolService;
import org.apache.hadoop.ha.protocolPB.ZKFCProtocolPB;
import org.apache.hadoop.ha.protocolPB.ZKFCProtocolServerSideTranslatorPB;
import org.apache.hadoop.hdfs.HDFSPolicyProvider;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.bulwark.hdfs.hotstandby.controller.ControllerLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves Hadoop's {@link ZKFCProtocol} where the stock ZKFC would ({@code dfs.ha.zkfc.port}), so the
 * commands administrators already use keep working: {@code hdfs haadmin -failover nn1 nn2} asks nn2's
 * controller for a graceful failover, which goes through the election (the active hands over cleanly,
 * no fencing needed). Access: {@code dfs.cluster.administrators} or the controller's own user, as the
 * stock ZKFC allows.
 */
public final class FailoverRpcServer implements ZKFCProtocol, Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FailoverRpcServer.class);

  private final ControllerLoop controller;
  private final long failoverTimeoutMillis;
  private final AccessControlList admins;
  private final Server server;

  public FailoverRpcServer(Configuration conf, InetSocketAddress bindAddress, ControllerLoop controller,
      long failoverTimeoutMillis) throws IOException {
    this.controller = controller;
    this.failoverTimeoutMillis = failoverTimeoutMillis;
    this.admins = new AccessControlList(conf.get("dfs.cluster.administrators", " "));
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, ZKFCProtocolPB.class, ProtobufRpcEngine2.class);
    BlockingService service = ZKFCProtocolService.newReflectiveBlockingService(
        new ZKFCProtocolServerSideTranslatorPB(this));
    this.server = new RPC.Builder(rpcConf).setProtocol(ZKFCProtocolPB.class).setInstance(service)
        .setBindAddress(bindAddress.getHostString()).setPort(bindAddress.getPort()).setNumHandlers(3)
        .setVerbose(false).build();
    if (conf.getBoolean("hadoop.security.authorization", false)) {
      server.refreshServiceAcl(rpcConf, new HDFSPolicyProvider());
    }
  }

  public void start() {
    server.start();
    LOG.info("Failover RPC (ZKFCProtocol) listening on {}", server.getListenerAddress());
  }

  public InetSocketAddress address() {
    return server.getListenerAddress();
  }

  @Override
  public void gracefulFailover() throws IOException {
    checkAdmin();
    try {
      controller.failoverToHere(failoverTimeoutMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while failing over");
    }
  }

  @Override
  public void cedeActive(int millisToCede) throws IOException {
    checkAdmin();
    controller.cede(millisToCede);
  }

  private void checkAdmin() throws IOException {
    UserGroupInformation caller = UserGroupInformation.getCurrentUser();
    UserGroupInformation self = UserGroupInformation.getLoginUser();
    if (admins.isUserAllowed(caller) || caller.getShortUserName().equals(self.getShortUserName())) {
      return;
    }
    String msg = "Disallowed failover request from " + caller + " at " + Server.getRemoteAddress()
        + ": not listed in dfs.cluster.administrators";
    LOG.warn(msg);
    throw new AccessControlException(msg);
  }

  @Override
  public void close() {
    server.stop();
  }
}
