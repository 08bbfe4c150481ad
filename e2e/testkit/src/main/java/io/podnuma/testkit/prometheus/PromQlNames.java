package io.podnuma.testkit.prometheus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression selects, so a test can check that alerts and dashboards use only series that
 * exist. A small reading of PromQL, not a parser: it drops what cannot hold a metric name (strings, label matchers,
 * ranges, grouping label lists, dashboard variables) and keeps the identifiers that are not functions, aggregations
 * or keywords. Names given only as {@code {__name__="..."}} are not seen.
 */
public final class PromQlNames {

    private static final Pattern STRINGS = Pattern.compile("\"(\\\\.|[^\"\\\\])*\"|'(\\\\.|[^'\\\\])*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^{}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^\\[\\]]*]");
    private static final Pattern LABEL_LISTS =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^()]*\\)");
    private static final Pattern VARIABLES = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    /** An identifier that does not continue a number ({@code 1e3}, {@code 5m}) or a longer name. */
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:])[a-zA-Z_:][a-zA-Z0-9_:]*");

    private static final Set<String> AGGREGATIONS = Set.of(
            "sum",
            "min",
            "max",
            "avg",
            "group",
            "stddev",
            "stdvar",
            "count",
            "count_values",
            "bottomk",
            "topk",
            "quantile",
            "limitk",
            "limit_ratio");
    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "offset",
            "bool",
            "and",
            "or",
            "unless",
            "atan2",
            "Inf",
            "inf",
            "NaN",
            "nan",
            "start",
            "end");

    /** A metric name and what may follow it: its label matchers, whose quoted values may hold braces. */
    private static final Pattern SELECTOR = Pattern.compile(
            "(?<![\\w.:$])([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(?:\\{((?:\"(?:\\\\.|[^\"\\\\])*\"|[^{}\"])*)})?");

    private static final Pattern MATCHER =
            Pattern.compile("([a-zA-Z_]\\w*)\\s*(=~|!~|!=|=)\\s*(\"(?:\\\\.|[^\"\\\\])*\")");

    /**
     * One vector selector of an expression.
     *
     * @param matchers label → operator and quoted value as written, e.g. {@code job → =~"$job"}
     */
    public record Selector(String name, Map<String, String> matchers) {}

    private PromQlNames() {}

    /** The vector selectors of {@code expression} that name a metric ({@link #of}), in the order written. */
    public static List<Selector> selectors(String expression) {
        Set<String> names = of(expression);
        List<Selector> selectors = new ArrayList<>();
        Matcher m = SELECTOR.matcher(expression);
        while (m.find()) {
            if (!names.contains(m.group(1))) {
                continue;
            }
            Map<String, String> matchers = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = MATCHER.matcher(m.group(2));
                while (l.find()) {
                    matchers.put(l.group(1), l.group(2) + l.group(3));
                }
            }
            selectors.add(new Selector(m.group(1), matchers));
        }
        return selectors;
    }

    /** The metric names {@code expression} selects, sorted. */
    public static SortedSet<String> of(String expression) {
        String s = STRINGS.matcher(expression).replaceAll(" ");
        s = MATCHERS.matcher(s).replaceAll(" ");
        s = RANGES.matcher(s).replaceAll(" ");
        s = LABEL_LISTS.matcher(s).replaceAll(" $1 ");
        s = VARIABLES.matcher(s).replaceAll(" ");
        SortedSet<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String name = m.group();
            boolean call = s.substring(m.end()).stripLeading().startsWith("(");
            if (!call && !AGGREGATIONS.contains(name) && !KEYWORDS.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }
}
