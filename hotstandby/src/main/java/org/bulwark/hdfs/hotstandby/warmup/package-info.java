/**
 * Warming a standby NameNode for its first activation: {@link org.bulwark.hdfs.hotstandby.warmup.ActiveStateWarmup},
 * a NameNode plugin that loads, while the NameNode is standby, the classes its first {@code transitionToActive}
 * and the first client calls after it would otherwise load then.
 */
package org.bulwark.hdfs.hotstandby.warmup;
