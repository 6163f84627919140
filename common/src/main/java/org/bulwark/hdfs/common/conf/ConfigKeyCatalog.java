package org.bulwark.hdfs.common.conf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every {@link ConfigKey} the modules on the classpath declare. Each module lists its key-holder
 * classes, one per line, in the resource {@value #CATALOG_RESOURCE}; the catalog collects their
 * {@code public static final ConfigKey} fields. The distribution's example configuration is written
 * from this catalog, so a key declared in code is documented without anyone remembering to.
 */
public final class ConfigKeyCatalog {
  /** Resource, in each module jar, naming that module's key-holder classes. */
  public static final String CATALOG_RESOURCE = "META-INF/bulwark/config-key-holders";

  private final List<ConfigKey<?>> keys;

  private ConfigKeyCatalog(List<ConfigKey<?>> keys) {
    this.keys = Collections.unmodifiableList(keys);
  }

  /** The keys declared by every module visible to {@code loader}, sorted by name. */
  public static ConfigKeyCatalog load(ClassLoader loader) throws IOException {
    Map<String, ConfigKey<?>> byName = new LinkedHashMap<>();
    Enumeration<URL> lists = loader.getResources(CATALOG_RESOURCE);
    while (lists.hasMoreElements()) {
      URL list = lists.nextElement();
      for (String holder : readClassNames(list)) {
        for (ConfigKey<?> key : keysOf(loadHolder(loader, holder, list))) {
          ConfigKey<?> other = byName.put(key.getName(), key);
          if (other != null && other != key) {
            throw new IllegalStateException("configuration key " + key.getName() + " is declared twice (again in " + holder + ")");
          }
        }
      }
    }
    List<ConfigKey<?>> sorted = new ArrayList<>(byName.values());
    sorted.sort(Comparator.comparing(ConfigKey::getName));
    return new ConfigKeyCatalog(sorted);
  }

  /** The {@code public static final ConfigKey} fields of {@code holder}, in declaration order. */
  public static List<ConfigKey<?>> keysOf(Class<?> holder) {
    List<ConfigKey<?>> found = new ArrayList<>();
    for (Field field : holder.getDeclaredFields()) {
      int mod = field.getModifiers();
      if (ConfigKey.class.equals(field.getType()) && Modifier.isStatic(mod) && Modifier.isFinal(mod)
          && Modifier.isPublic(mod)) {
        try {
          found.add((ConfigKey<?>) field.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException("cannot read " + holder.getName() + "." + field.getName(), e);
        }
      }
    }
    return found;
  }

  public List<ConfigKey<?>> keys() {
    return keys;
  }

  private static Class<?> loadHolder(ClassLoader loader, String holder, URL list) {
    try {
      return Class.forName(holder, true, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(list + " names " + holder + ", which is not on the classpath", e);
    }
  }

  private static List<String> readClassNames(URL list) throws IOException {
    List<String> names = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(list.openStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        String name = line.replaceFirst("#.*", "").trim();
        if (!name.isEmpty()) {
          names.add(name);
        }
      }
    }
    return names;
  }
}
