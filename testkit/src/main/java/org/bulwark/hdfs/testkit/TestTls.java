package org.bulwark.hdfs.testkit;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.hadoop.conf.Configuration;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made with the JDK's own {@code keytool}, and
 * the {@code ssl-server.xml} Hadoop's web servers read it from, so a test can serve a daemon's UI over real TLS and
 * trust exactly that certificate. Hadoop reads the SSL resource from the classpath
 * ({@code dfs.https.server.keystore.resource}); {@link #withResource} puts this one's directory there for one call.
 */
public final class TestTls {
  private static final String PASSWORD = "bulwark-test";

  private final File dir;
  private final File keystore;
  private final String resource;

  private TestTls(File dir, String resource) {
    this.dir = dir;
    this.keystore = new File(dir, "keystore.jks");
    this.resource = resource;
  }

  /** Makes the keystore and {@code resource} (an ssl-server.xml of that name) in {@code dir}. */
  public static TestTls create(File dir, String resource) throws IOException, InterruptedException {
    TestTls tls = new TestTls(dir, resource);
    Process keytool = new ProcessBuilder(new File(System.getProperty("java.home"), "bin/keytool").getPath(),
        "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "JKS",
        "-keystore", tls.keystore.getPath(), "-storepass", PASSWORD, "-keypass", PASSWORD)
        .redirectErrorStream(true).start();
    keytool.getInputStream().transferTo(OutputStream.nullOutputStream());
    if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
      throw new IOException("keytool could not make " + tls.keystore);
    }
    Configuration ssl = new Configuration(false);
    ssl.set("ssl.server.keystore.location", tls.keystore.getPath());
    ssl.set("ssl.server.keystore.password", PASSWORD);
    ssl.set("ssl.server.keystore.keypassword", PASSWORD);
    ssl.set("ssl.server.keystore.type", "jks");
    try (OutputStream out = Files.newOutputStream(new File(dir, resource).toPath())) {
      ssl.writeXml(out);
    }
    return tls;
  }

  /** Sets {@code dfs.https.server.keystore.resource} in {@code conf} to this one's resource. */
  public Configuration configure(Configuration conf) {
    conf.set("dfs.https.server.keystore.resource", resource);
    return conf;
  }

  /** Runs {@code call} with this one's directory on the classpath Hadoop's {@code Configuration} reads resources from. */
  public <T> T withResource(Callable<T> call) throws Exception {
    Thread t = Thread.currentThread();
    ClassLoader saved = t.getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toURI().toURL()}, saved)) {
      t.setContextClassLoader(loader);
      return call.call();
    } finally {
      t.setContextClassLoader(saved);
    }
  }

  /** A client context that trusts this certificate and nothing else. */
  public SSLContext clientContext() throws IOException, GeneralSecurityException {
    KeyStore trusted = KeyStore.getInstance("JKS");
    try (InputStream in = new FileInputStream(keystore)) {
      trusted.load(in, PASSWORD.toCharArray());
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return context;
  }
}
