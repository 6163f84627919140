/**
 * The decisions of Bulwark's placement policies as plain Java over plain data (rack names, fill
 * levels, counts): which rack gets the next replica, how many replicas a rack may hold, how many racks
 * a block needs, whether a move keeps a block's racks. No Hadoop types, so they are unit-tested
 * exhaustively and benchmarked at thousands of nodes without a cluster.
 */
package org.bulwark.hdfs.placement.rules;
