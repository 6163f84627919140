/**
 * How a controller watches its NameNode: {@link org.bulwark.hdfs.hotstandby.health.HealthMonitor} calls
 * {@code monitorHealth} at a fixed interval and reports each change as a
 * {@link org.bulwark.hdfs.hotstandby.health.NameNodeHealth}, telling a refused connection (the process is gone)
 * from a timeout (it may be hung, still active, and must be fenced); an idle watched connection brings the next
 * check forward the moment the NameNode closes it; {@link org.bulwark.hdfs.hotstandby.health.HaServiceProxies}
 * makes {@code HAServiceProtocol} proxies that fail at once when nothing listens. Whether it is healthy is the
 * NameNode's own answer; what to do about it is {@link org.bulwark.hdfs.hotstandby.controller.ControllerRules}'s.
 */
package org.bulwark.hdfs.hotstandby.health;
