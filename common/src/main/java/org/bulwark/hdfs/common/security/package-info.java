/**
 * How a Bulwark daemon logs in on a Kerberized cluster ({@link org.bulwark.hdfs.common.security.KeytabLogin}):
 * whether the configuration asks for Kerberos at all, and an unset key or failed login turned into one line
 * naming the keytab and principal keys, so the daemon refuses to start instead of failing its first RPC. The login
 * itself, {@code _HOST} substitution included, is Hadoop's {@code SecurityUtil.login}; which keys name the keytab
 * and principal is the calling daemon's choice.
 */
package org.bulwark.hdfs.common.security;
