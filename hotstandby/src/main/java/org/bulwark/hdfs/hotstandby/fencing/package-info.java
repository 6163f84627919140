/**
 * Makes sure the previous active NameNode serves no more before another becomes active
 * ({@link org.bulwark.hdfs.hotstandby.fencing.PreviousActiveFencer}): a graceful {@code transitionToStandby}
 * first, then the configured fencing methods, and a verdict (graceful, fenced, failed) the controller acts on.
 * The methods themselves ({@code dfs.ha.fencing.methods}: sshfence, shell...) are run by Hadoop's
 * {@code NodeFencer}, exactly as the stock ZKFC runs them; whether to fence at all is the controller's decision.
 */
package org.bulwark.hdfs.hotstandby.fencing;
