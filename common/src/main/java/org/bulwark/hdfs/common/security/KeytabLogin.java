package org.bulwark.hdfs.common.security;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;

/**
 * How a Bulwark daemon logs in on a Kerberized cluster: from the keytab and principal its
 * configuration names, {@code _HOST} standing for the host it serves, exactly as Hadoop's daemons do
 * ({@code SecurityUtil.login}). On a cluster without Kerberos it does nothing. A login that fails is one
 * line naming both keys, so a daemon that cannot authenticate refuses to start instead of failing its
 * first RPC.
 */
public final class KeytabLogin {
  private KeytabLogin() {
  }

  /** Whether {@code conf} asks for Kerberos ({@code hadoop.security.authentication}). */
  public static boolean isKerberos(Configuration conf) {
    return SecurityUtil.getAuthenticationMethod(conf) == AuthenticationMethod.KERBEROS;
  }

  /**
   * Logs this process in from {@code keytabKey} as {@code principalKey} when {@code conf} asks for Kerberos.
   *
   * @param host the host {@code _HOST} stands for in the principal (null: this host's canonical name)
   * @throws IllegalArgumentException (one line) when a key is unset or the login fails
   */
  public static void loginIfKerberos(Configuration conf, String keytabKey, String principalKey, String host) {
    if (!isKerberos(conf)) {
      return;
    }
    String keytab = conf.getTrimmed(keytabKey, "");
    String principal = conf.getTrimmed(principalKey, "");
    if (keytab.isEmpty() || principal.isEmpty()) {
      throw new IllegalArgumentException("hadoop.security.authentication is kerberos but " + (keytab.isEmpty() ? keytabKey
          : principalKey) + " is not set: set " + keytabKey + " to a keytab holding " + principalKey);
    }
    UserGroupInformation.setConfiguration(conf);
    try {
      SecurityUtil.login(conf, keytabKey, principalKey, host);
    } catch (IOException | RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      throw new IllegalArgumentException("cannot log in as " + principal + " from keytab " + keytab + " (" + principalKey
          + ", " + keytabKey + "): " + String.valueOf(root.getMessage()).split("\n")[0]);
    }
  }
}
