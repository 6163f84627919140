package org.bulwark.hdfs.common.conf;

import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;

/**
 * One {@code bulwark.*} configuration key: its name, its default (as an administrator would write it
 * in {@code hdfs-site.xml}), a one-line meaning, and how a value is read and validated.
 *
 * <p>Declare keys as {@code public static final} constants of a key-holder class listed in
 * {@value ConfigKeyCatalog#CATALOG_RESOURCE}; reading a key through {@link #get(Configuration)} either
 * returns a valid value or throws an {@link InvalidConfigException} naming the key.
 *
 * @param <T> the type the value is read as
 */
public final class ConfigKey<T> {
  private static final Pattern NAME = Pattern.compile("bulwark(\\.[a-z0-9][a-z0-9-]*)+(\\.<[a-z]+>(\\.[a-z0-9-]+)*)*");

  /** Turns the trimmed text of a value into {@code T}, or returns null when the text is not valid. */
  interface Reader<T> {
    T read(String text);
  }

  private final String name;
  private final String defaultText;
  private final String description;
  private final String expected;
  private final Reader<T> reader;
  /** The stock Hadoop key this one stands in for, read when this one is not set; null when none. */
  private final String stockTwin;

  private ConfigKey(String name, String defaultText, String description, String expected, Reader<T> reader) {
    this(name, defaultText, description, expected, reader, null);
  }

  private ConfigKey(String name, String defaultText, String description, String expected, Reader<T> reader,
      String stockTwin) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("configuration key '" + name
          + "' must start with 'bulwark.' and use lower-case dotted words (<placeholder> parts allowed)");
    }
    if (description == null || description.trim().isEmpty() || description.contains("\n")) {
      throw new IllegalArgumentException(name + ": the description must be one non-empty line");
    }
    this.name = name;
    this.defaultText = Objects.requireNonNull(defaultText, "defaultText");
    this.description = description.trim();
    this.expected = expected;
    this.reader = reader;
    this.stockTwin = stockTwin;
    if (!defaultText.isEmpty() && reader.read(defaultText.trim()) == null) {
      throw new IllegalArgumentException(name + ": default '" + defaultText + "' is not " + expected);
    }
  }

  /** A key holding free text; an empty default means "not set". */
  public static ConfigKey<String> text(String name, String defaultText, String description) {
    return new ConfigKey<>(name, defaultText, description, "any text", t -> t);
  }

  /** A key holding {@code true} or {@code false}. */
  public static ConfigKey<Boolean> flag(String name, boolean defaultValue, String description) {
    return new ConfigKey<>(name, Boolean.toString(defaultValue), description, "true or false", t -> {
      String lower = t.toLowerCase(Locale.ROOT);
      return "true".equals(lower) ? Boolean.TRUE : "false".equals(lower) ? Boolean.FALSE : null;
    });
  }

  /** A key holding a whole number in {@code [min, max]}. */
  public static ConfigKey<Long> number(String name, long defaultValue, long min, long max, String description) {
    String expected = max == Long.MAX_VALUE
        ? "a whole number >= " + min
        : "a whole number from " + min + " to " + max;
    return new ConfigKey<>(name, Long.toString(defaultValue), description, expected, t -> {
      try {
        long v = Long.parseLong(t);
        return v >= min && v <= max ? v : null;
      } catch (NumberFormatException e) {
        return null;
      }
    });
  }

  /** A key holding a percentage from 0 to 100, decimals allowed ({@code 0.5}); a trailing {@code %} is accepted. */
  public static ConfigKey<Double> percent(String name, String defaultText, String description) {
    return new ConfigKey<>(name, defaultText, description, "a percentage from 0 to 100, such as 0, 0.5 or 10", t -> {
      String digits = t.endsWith("%") ? t.substring(0, t.length() - 1).trim() : t;
      if (!digits.matches("\\d{1,3}(\\.\\d+)?")) {
        return null;
      }
      double v = Double.parseDouble(digits);
      return v <= 100 ? v : null;
    });
  }

  /**
   * A key holding a duration, read in milliseconds. Values take Hadoop's time suffixes (ns, us, ms, s,
   * m, h, d); a bare number means milliseconds.
   */
  public static ConfigKey<Long> durationMillis(String name, String defaultText, long minMillis, String description) {
    String expected = "a duration of at least " + minMillis + "ms, such as " + durationExamples(minMillis);
    return new ConfigKey<>(name, defaultText, description, expected, t -> {
      Long millis = Durations.parseMillis(t);
      return millis != null && millis >= minMillis ? millis : null;
    });
  }

  /** Three durations of at least {@code minMillis}, so that the text a bad value gets names only valid ones. */
  private static String durationExamples(long minMillis) {
    String[] texts = {"500ms", "2s", "1m", "5m", "1h", "1d"};
    long[] millis = {500, 2_000, 60_000, 300_000, 3_600_000, 86_400_000};
    StringBuilder out = new StringBuilder();
    int shown = 0;
    for (int i = 0; i < texts.length && shown < 3; i++) {
      if (millis[i] >= minMillis) {
        out.append(shown == 0 ? "" : shown == 2 || i == texts.length - 1 ? " or " : ", ").append(texts[i]);
        shown++;
      }
    }
    return shown == 0 ? minMillis + "ms" : out.toString();
  }

  /** A key holding {@code host:port}, a port from 0 (any free one) to 65535. */
  public static ConfigKey<String> hostPort(String name, String defaultText, String description) {
    return new ConfigKey<>(name, defaultText, description, "host:port, such as 0.0.0.0:9880 (port 0 to 65535)", t -> {
      int colon = t.lastIndexOf(':');
      if (colon <= 0 || !t.substring(colon + 1).matches("\\d{1,5}") || t.substring(0, colon).matches(".*[:\\s].*")) {
        return null;
      }
      return Integer.parseInt(t.substring(colon + 1)) <= 65_535 ? t : null;
    });
  }

  /** A key holding one of an enum's constants, written in lower case with dashes. */
  public static <E extends Enum<E>> ConfigKey<E> choice(String name, E defaultValue, String description) {
    Class<E> type = defaultValue.getDeclaringClass();
    StringBuilder names = new StringBuilder("one of");
    for (E e : type.getEnumConstants()) {
      names.append(names.length() == 6 ? " " : ", ").append(textOf(e));
    }
    return new ConfigKey<>(name, textOf(defaultValue), description, names.toString(), t -> {
      for (E e : type.getEnumConstants()) {
        if (textOf(e).equalsIgnoreCase(t) || e.name().equalsIgnoreCase(t)) {
          return e;
        }
      }
      return null;
    });
  }

  private static String textOf(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * This key, standing in for the stock Hadoop key {@code stockKey}: where this one is not set and an administrator set
   * the stock one (anywhere but Hadoop's own {@code *-default.xml}), the stock key's value is read, so what was tuned
   * for the stock daemon holds; where neither is set, this key's default.
   */
  public ConfigKey<T> withStockTwin(String stockKey) {
    return new ConfigKey<>(name, defaultText, description, expected, reader, stockKey);
  }

  /** The stock Hadoop key read when this one is not set, or null. */
  public String getStockTwin() {
    return stockTwin;
  }

  /**
   * Reads this key from {@code conf}, falling back to its stock twin and then to the default; throws when the value
   * is not valid.
   */
  public T get(Configuration conf) {
    if (stockTwin != null && conf.get(name) == null && setByAdministrator(conf, stockTwin)) {
      return getAt(conf, stockTwin);
    }
    return getAt(conf, name);
  }

  private static boolean setByAdministrator(Configuration conf, String key) {
    if (conf.get(key) == null) {
      return false;
    }
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return true;
    }
    for (String source : sources) {
      if (!source.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads a key whose name has placeholders ({@code bulwark.x.<ns>.<nn>}), with the placeholders
   * filled in order by {@code parts}.
   */
  public T get(Configuration conf, String... parts) {
    return getAt(conf, resolve(parts));
  }

  /** The concrete key name with the placeholders filled in order by {@code parts}. */
  public String resolve(String... parts) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    for (String part : parts) {
      int open = name.indexOf('<', from);
      if (open < 0) {
        throw new IllegalArgumentException(name + " has fewer than " + parts.length + " placeholders");
      }
      out.append(name, from, open).append(part);
      from = name.indexOf('>', open) + 1;
    }
    if (name.indexOf('<', from) >= 0) {
      throw new IllegalArgumentException(name + " has more than " + parts.length + " placeholders");
    }
    return out.append(name.substring(from)).toString();
  }

  private T getAt(Configuration conf, String key) {
    String text = conf.getTrimmed(key, defaultText.trim());
    if (text.isEmpty() && defaultText.isEmpty()) {
      return null;
    }
    T value = reader.read(text);
    if (value == null) {
      throw new InvalidConfigException(key, text, expected);
    }
    return value;
  }

  public String getName() {
    return name;
  }

  /** The default as it would be written in {@code hdfs-site.xml}; empty when the key has none. */
  public String getDefaultText() {
    return defaultText;
  }

  public String getDescription() {
    return description;
  }

  /** What a valid value looks like, as error messages say it. */
  public String getExpected() {
    return expected;
  }

  @Override
  public String toString() {
    return name + " (default '" + defaultText + "')";
  }

  /** Hadoop's duration syntax ({@code Configuration.getTimeDuration}), kept here so errors name the key. */
  static final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

    private Durations() {
    }

    static Long parseMillis(String text) {
      java.util.regex.Matcher m = DURATION.matcher(text);
      if (!m.matches()) {
        return null;
      }
      long amount;
      try {
        amount = Long.parseLong(m.group(1));
      } catch (NumberFormatException e) {
        return null;
      }
      String unit = m.group(2) == null ? "ms" : m.group(2).toLowerCase(Locale.ROOT);
      switch (unit) {
        case "ns": return TimeUnit.NANOSECONDS.toMillis(amount);
        case "us": return TimeUnit.MICROSECONDS.toMillis(amount);
        case "ms": return amount;
        case "s": return TimeUnit.SECONDS.toMillis(amount);
        case "m": return TimeUnit.MINUTES.toMillis(amount);
        case "h": return TimeUnit.HOURS.toMillis(amount);
        default: return TimeUnit.DAYS.toMillis(amount);
      }
    }
  }
}
