/**
 * The storage-cost advisor: per directory, the raw bytes its files take today against what each of HDFS's
 * built-in erasure-coding policies would take ({@link org.bulwark.hdfs.monitor.advisor.StorageCostAdvisor},
 * {@link org.bulwark.hdfs.monitor.advisor.DirectoryCost}), the striped layout counted as HDFS writes it, partial
 * stripes included ({@link org.bulwark.hdfs.monitor.advisor.ErasureCodingLayout}), so small files that erasure
 * coding makes dearer show. Plain data in and out: the file list comes from the last scan, and it only advises;
 * setting a policy is left to the administrator and HDFS.
 */
package org.bulwark.hdfs.monitor.advisor;
