package org.bulwark.hdfs.monitor.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;
import org.bulwark.hdfs.common.conf.InvalidConfigException;
import org.bulwark.hdfs.testkit.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PostgreSQL store's password comes from a credential store, never from plain configuration. */
class StoreFactoryIT {
  @TempDir
  File dir;

  private static Configuration postgres(String schema) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    try (Connection c = DriverManager.getConnection(TestPostgres.URL, p); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
    }
    Configuration conf = new Configuration(false);
    conf.set("bulwark.monitor.jdbc.url", TestPostgres.URL + "?currentSchema=" + schema);
    conf.set("bulwark.monitor.jdbc.user", "postgres");
    return conf;
  }

  @Test
  void aPasswordInPlainConfigurationIsRefusedWithOneLine() throws Exception {
    Configuration conf = postgres("bulwark_plain_" + System.nanoTime());
    conf.set("bulwark.monitor.jdbc.password", "s3cret");
    InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> StoreFactory.open(conf));
    assertEquals("bulwark.monitor.jdbc.password", e.getKey());
    assertTrue(e.getMessage().startsWith("bulwark.monitor.jdbc.password = '(hidden)' is not valid: expected no password "
        + "in plain configuration"), e.getMessage());
    assertTrue(!e.getMessage().contains("s3cret") && !e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void thePasswordIsReadFromTheCredentialStore() throws Exception {
    Configuration conf = postgres("bulwark_jceks_" + System.nanoTime());
    conf.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH,
        "localjceks://file" + new File(dir, "bulwark.jceks").getAbsolutePath());
    CredentialProvider provider = CredentialProviderFactory.getProviders(conf).get(0);
    provider.createCredentialEntry("bulwark.monitor.jdbc.password", "s3cret".toCharArray());
    provider.flush();
    try (HistoryStore store = StoreFactory.open(conf)) {
      assertTrue(store.describe().startsWith("PostgreSQL "), store.describe());
      assertTrue(store.namespaceId("hdfs://ns1") > 0);
    }
  }
}
