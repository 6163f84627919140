/**
 * The hot standby as administrators deploy it. {@link org.bulwark.hdfs.hotstandby.HotStandbyController}
 * ({@code hdfs hotstandby}, one beside each NameNode of an HA nameservice) checks the configuration, finds its
 * NameNode as the stock ZKFC does, refuses to run beside a stock ZKFC, and wires the controller's parts together;
 * {@link org.bulwark.hdfs.hotstandby.ZooKeeperFailoverProxyProvider} and
 * {@link org.bulwark.hdfs.hotstandby.ZooKeeperObserverReadProxyProvider} send clients to the NameNode ZooKeeper
 * names active; {@link org.bulwark.hdfs.hotstandby.HotStandbyKeys} declares the keys. Election, health checks and
 * fencing are in the sub-packages; the NameNodes' state transitions, the fencing methods and the client RPC
 * proxies remain Hadoop's, and without ZooKeeper clients fall back to Hadoop's configured-list behaviour.
 */
package org.bulwark.hdfs.hotstandby;
