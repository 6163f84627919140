/**
 * Hadoop's {@code ZKFCProtocol} served where the stock ZKFC serves it
 * ({@link org.bulwark.hdfs.hotstandby.rpc.FailoverRpcServer}), so {@code hdfs haadmin -failover} keeps working;
 * this package decides only who may ask ({@code dfs.cluster.administrators} or the controller's own user). The RPC
 * server and the protocol are Hadoop's; the graceful failover and cede requests are carried out by
 * {@link org.bulwark.hdfs.hotstandby.controller.ControllerLoop} through the election.
 */
package org.bulwark.hdfs.hotstandby.rpc;
