/**
 * The test kit every Bulwark module's tests, benchmarks and the demo use: {@link
 * org.bulwark.hdfs.testkit.BulwarkMiniCluster}, an embedded HDFS with racks, datacenters, federation,
 * HA and ZooKeeper, and the figures (block spread, utilisation) the issues measure.
 */
package org.bulwark.hdfs.testkit;
