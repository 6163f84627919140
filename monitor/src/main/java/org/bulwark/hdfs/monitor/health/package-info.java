/**
 * Health checks an operator knows from Cloudera Manager's HDFS health tests: per namespace a canary
 * (create, write, read back, delete a small file), missing and corrupt blocks as a share of all blocks,
 * dead and stale DataNodes, the active NameNode; and for the monitor, the age of its last complete poll.
 * Each ends OK, WARNING, CRITICAL (or UNKNOWN when it could not be measured) with its reason.
 * {@link org.bulwark.hdfs.monitor.health.HealthRules} decides, pure; the probe and checker gather.
 */
package org.bulwark.hdfs.monitor.health;
