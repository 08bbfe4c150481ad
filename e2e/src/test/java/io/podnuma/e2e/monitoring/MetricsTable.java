package io.podnuma.e2e.monitoring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics tables of {@code docs/metrics.md}: the rows whose first cell is a backticked metric name of podnuma's
 * ({@code podnuma_}) or of the process and its JVM ({@code process_}, {@code jvm_}), with the type and the backticked
 * label names of the following cells.
 */
record MetricsTable(List<Row> rows) {

    record Row(String name, String type, SortedSet<String> labels) {}

    private static final Pattern NAME = Pattern.compile("^`((?:podnuma|process|jvm)_[a-z0-9_]+)`$");
    private static final Pattern LABEL = Pattern.compile("`([a-zA-Z_][a-zA-Z0-9_]*)`");

    MetricsTable {
        rows = List.copyOf(rows);
    }

    /** The rows of every Markdown table in {@code markdown} whose first cell is a metric name in backticks. */
    static MetricsTable parse(String markdown) {
        List<Row> rows = new ArrayList<>();
        for (String line : markdown.lines().toList()) {
            if (!line.startsWith("|")) {
                continue;
            }
            List<String> cells = Arrays.stream(line.substring(1).split("\\|", -1))
                    .map(String::strip)
                    .toList();
            if (cells.size() < 4) {
                continue;
            }
            Matcher name = NAME.matcher(cells.get(0));
            if (!name.matches()) {
                continue;
            }
            SortedSet<String> labels = new TreeSet<>();
            Matcher label = LABEL.matcher(cells.get(2));
            while (label.find()) {
                labels.add(label.group(1));
            }
            rows.add(new Row(name.group(1), cells.get(1), labels));
        }
        return new MetricsTable(rows);
    }
}
