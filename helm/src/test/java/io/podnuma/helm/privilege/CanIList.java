package io.podnuma.helm.privilege;

import io.podnuma.helm.privilege.Privileges.Grant;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code kubectl auth can-i --list} as rows. kubectl prints one row per resource (or non-resource URL) and resource
 * name, with the verbs of every rule merged; the same URL may appear twice (two default roles grant it), so the rows
 * are a set.
 */
public final class CanIList {

    /** One printed row: a resource in kubectl's form or a non-resource URL, at most one resource name, the verbs. */
    public record Row(String resource, String resourceName, Set<String> verbs) {
        public Row {
            verbs = Set.copyOf(new TreeSet<>(verbs));
        }

        @Override
        public String toString() {
            return resource + (resourceName.isEmpty() ? "" : " [" + resourceName + "]") + " " + new TreeSet<>(verbs);
        }
    }

    private static final Pattern ROW =
            Pattern.compile("^(\\S*)\\s+\\[([^\\]]*)\\]\\s+\\[([^\\]]*)\\]\\s+\\[([^\\]]*)\\]\\s*$");

    private CanIList() {}

    /** Parses kubectl's table; a line that is neither the header nor a row fails, so a format change is seen. */
    public static Set<Row> parse(String table) {
        Set<Row> rows = new TreeSet<>((a, b) -> a.toString().compareTo(b.toString()));
        for (String line : table.split("\n")) {
            if (line.isBlank() || line.startsWith("Resources ")) {
                continue;
            }
            Matcher m = ROW.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a row of kubectl auth can-i --list: " + line);
            }
            String resource = m.group(1).isEmpty() ? m.group(2) : m.group(1);
            if (!m.group(1).isEmpty() && !m.group(2).isEmpty()) {
                throw new IllegalArgumentException("a row with a resource and a URL: " + line);
            }
            rows.add(new Row(resource, m.group(3), Set.of(words(m.group(4)))));
        }
        return Set.copyOf(rows);
    }

    /** The rows kubectl prints for these grants: one per resource and name, the verbs merged. */
    public static Set<Row> rowsOf(Collection<Grant> grants) {
        Map<String, Row> merged = new LinkedHashMap<>();
        for (Grant g : grants) {
            List<String> names = g.resourceNames().isEmpty() ? List.of("") : g.resourceNames();
            for (String name : names) {
                merged.merge(
                        g.resource() + "\u0000" + name,
                        new Row(g.resource(), name, g.verbs()),
                        (a, b) -> new Row(
                                a.resource(),
                                a.resourceName(),
                                java.util.stream.Stream.concat(a.verbs().stream(), b.verbs().stream())
                                        .collect(Collectors.toSet())));
            }
        }
        return Set.copyOf(merged.values());
    }

    private static String[] words(String s) {
        return Arrays.stream(s.trim().split("\\s+")).filter(w -> !w.isEmpty()).toArray(String[]::new);
    }
}
