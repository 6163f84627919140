/** The client side of NameNode discovery: a shared, watched copy of each nameservice's active-NameNode record. */
package org.bulwark.hdfs.hotstandby.client;
