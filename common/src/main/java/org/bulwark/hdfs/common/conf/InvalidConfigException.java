package org.bulwark.hdfs.common.conf;

/**
 * A configuration value that cannot be used. The message is one line that names the key, the value
 * found and what would be valid, so an administrator can fix {@code hdfs-site.xml} without reading code.
 */
public class InvalidConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String key;

  public InvalidConfigException(String key, String value, String expected) {
    super(key + " = '" + value + "' is not valid: expected " + expected);
    this.key = key;
  }

  /** The configuration key whose value was rejected. */
  public String getKey() {
    return key;
  }
}
