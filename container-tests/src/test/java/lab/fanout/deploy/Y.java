package lab.fanout.deploy;

import java.util.List;
import java.util.Map;

/** Null-tolerant look-ups in parsed YAML: a missing step gives an empty map or list, or a null string. */
final class Y {

    private Y() {
    }

    /** @param path keys separated by dots, e.g. {@code spec.template.metadata} */
    static Object at(Object node, String path) {
        Object current = node;
        for (String key : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(key);
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node, String path) {
        return at(node, path) instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Object node, String path) {
        return at(node, path) instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }

    static String str(Object node, String path) {
        Object value = at(node, path);
        return value == null ? null : String.valueOf(value);
    }
}
