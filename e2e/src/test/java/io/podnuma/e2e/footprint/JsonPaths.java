package io.podnuma.e2e.footprint;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The JSON paths whose values differ between two versions of one object ({@code status.conditions[1].status}),
 * leaves only; the fields that change on every write ({@code metadata.resourceVersion}, {@code metadata.managedFields})
 * are left out, so what is left says what a writer changed.
 */
final class JsonPaths {

    private static final Set<String> EVERY_WRITE = Set.of("metadata.resourceVersion", "metadata.managedFields");

    private JsonPaths() {}

    static List<String> changed(JsonNode before, JsonNode after) {
        Set<String> out = new TreeSet<>();
        walk("", before, after, out);
        return new ArrayList<>(out);
    }

    /** The value at a path of {@link #changed} ({@code status.conditions[1].status}); a missing node if none. */
    static JsonNode at(JsonNode root, String path) {
        if (path.equals("(root)")) {
            return root;
        }
        String pointer = "/" + path.replace(".", "/").replaceAll("\\[(\\d+)]", "/$1");
        return root.at(pointer);
    }

    private static void walk(String path, JsonNode a, JsonNode b, Set<String> out) {
        if (EVERY_WRITE.contains(path)) {
            return;
        }
        if (a == null || b == null || a.getNodeType() != b.getNodeType()) {
            if (!(a == null && b == null)) {
                out.add(path.isEmpty() ? "(root)" : path);
            }
            return;
        }
        if (a.isObject()) {
            Set<String> names = new TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                walk(path.isEmpty() ? n : path + "." + n, a.get(n), b.get(n), out);
            }
        } else if (a.isArray()) {
            Iterator<JsonNode> x = a.elements();
            Iterator<JsonNode> y = b.elements();
            int i = 0;
            while (x.hasNext() || y.hasNext()) {
                walk(path + "[" + i++ + "]", x.hasNext() ? x.next() : null, y.hasNext() ? y.next() : null, out);
            }
        } else if (!a.equals(b)) {
            out.add(path);
        }
    }
}
