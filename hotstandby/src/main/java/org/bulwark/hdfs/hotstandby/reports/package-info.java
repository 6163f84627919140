/**
 * What a controller does for the NameNode it made active beyond the transition itself:
 * {@link org.bulwark.hdfs.hotstandby.reports.BlockReportTrigger} asks the live DataNodes for the full block
 * reports a newly active NameNode waits for before it trusts its replica map. The reports themselves, and
 * what the NameNode does with them, are Hadoop's.
 */
package org.bulwark.hdfs.hotstandby.reports;
