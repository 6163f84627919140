package org.bulwark.hdfs.balancer.cli;

import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

/** Writes maps, lists, numbers, strings and booleans as JSON: all the report needs, no library. */
final class Json {
  private Json() {
  }

  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, "");
    return out.append('\n').toString();
  }

  private static void write(Object v, StringBuilder out, String indent) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof Map) {
      Map<?, ?> map = (Map<?, ?>) v;
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        out.append(indent).append("  ");
        string(String.valueOf(e.getKey()), out);
        out.append(": ");
        write(e.getValue(), out, indent + "  ");
        out.append(it.hasNext() ? ",\n" : "\n");
      }
      out.append(indent).append('}');
    } else if (v instanceof Collection) {
      out.append('[');
      Iterator<?> it = ((Collection<?>) v).iterator();
      while (it.hasNext()) {
        write(it.next(), out, indent);
        if (it.hasNext()) {
          out.append(", ");
        }
      }
      out.append(']');
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      out.append(Double.isFinite(d) ? String.valueOf(Math.round(d * 1000) / 1000.0) : "null");
    } else if (v instanceof Number || v instanceof Boolean) {
      out.append(v);
    } else {
      string(v.toString(), out);
    }
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }
}
