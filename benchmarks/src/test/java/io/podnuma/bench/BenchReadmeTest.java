package io.podnuma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The latest-figures table of this module's README is held to what it names: each row's command runs groups that
 * {@code scripts/bench} knows, each group has a row, each budget is one {@code docs/DESIGN.md} gives and each of
 * DESIGN's budgets has a row, and each row says which run it comes from. Links from the other docs into the README
 * land on one of its headings. The figures themselves are a run's, not the code's: nothing checks them.
 */
class BenchReadmeTest {

    static final String README = "benchmarks/README.md";
    static final String BEGIN = "<!-- latest-figures:begin -->";
    static final String END = "<!-- latest-figures:end -->";
    /** A budget that no bench measures yet says so in its command cell. */
    static final String NO_BENCH = "no bench yet";

    private static final Pattern COMMAND = Pattern.compile("(?:BENCH_ONLY=([a-z,]+) )?scripts/bench");
    private static final Pattern RUN = Pattern.compile("\\d{4}-\\d{2}-\\d{2}, `[0-9a-f]{7,40}`( \\(\\d+ runs\\))?");
    private static final Pattern LINK = Pattern.compile("benchmarks/README\\.md#([^)\\s\"']+)");
    private static final Pattern LOCAL_LINK = Pattern.compile("]\\(#([^)\\s]+)\\)");

    /** One row of the table: its cells by column name. */
    record Row(String command, String measure, String budget, String latest, String run) {}

    @Test
    void everyCommandRunsGroupsTheScriptKnowsAndEveryGroupHasARow() throws IOException {
        Set<String> groups = benchGroups(read("scripts/bench"));
        assertThat(groups).as("the groups of scripts/bench").contains("alloc", "agent", "node");
        Set<String> covered = new TreeSet<>();
        for (Row row : rows(read(README))) {
            if (row.command().equals(NO_BENCH)) {
                assertThat(row.budget())
                        .as("a row with no bench is there for a budget: %s", row.measure())
                        .isNotBlank();
                continue;
            }
            Matcher m = COMMAND.matcher(row.command());
            assertThat(m.matches())
                    .as("'%s' (%s) is `BENCH_ONLY=<groups> scripts/bench`", row.command(), row.measure())
                    .isTrue();
            List<String> named = m.group(1) == null
                    ? List.copyOf(groups)
                    : List.of(m.group(1).split(","));
            assertThat(groups).as("the groups of '%s'", row.command()).containsAll(named);
            covered.addAll(named);
        }
        assertThat(covered).as("groups with a row in the table").containsAll(groups);
    }

    @Test
    void everyBudgetIsOneTheDesignGivesAndEveryDesignBudgetHasARow() throws IOException {
        Set<String> design = designBudgets(read("docs/DESIGN.md"));
        assertThat(design).as("the budgets of docs/DESIGN.md").contains("p99 < 10 ms", "RSS < 256 MiB");
        Set<String> table = new LinkedHashSet<>();
        for (Row row : rows(read(README))) {
            for (String part : budgetParts(row.budget())) {
                assertThat(design)
                        .as("the budget '%s' of '%s' is one docs/DESIGN.md gives", part, row.measure())
                        .contains(part);
                table.add(part);
            }
        }
        assertThat(table).as("every budget of docs/DESIGN.md has a row").containsAll(design);
    }

    @Test
    void everyRowHasAFigureAndSaysWhichRunItComesFrom() throws IOException {
        for (Row row : rows(read(README))) {
            assertThat(row.latest()).as("the figure of '%s'", row.measure()).isNotBlank();
            if (!row.command().equals(NO_BENCH)) {
                assertThat(row.run())
                        .as("the run of '%s': its date and the commit measured", row.measure())
                        .matches(RUN);
            }
        }
    }

    @Test
    void linksIntoTheReadmeLandOnAHeading() throws IOException {
        Set<String> anchors = anchors(read(README));
        List<String> checked = new ArrayList<>();
        List<String> broken = new ArrayList<>();
        for (Path doc : Repository.files(".md")) {
            String text = Files.readString(doc);
            String name = Repository.root().relativize(doc).toString();
            collect(LINK.matcher(text), anchors, name, checked, broken);
            if (name.equals(README)) {
                collect(LOCAL_LINK.matcher(text), anchors, name, checked, broken);
            }
        }
        // the node agent's test docs link to the agent bench's section: a scan that found nothing checked nothing
        assertThat(checked)
                .as("links into benchmarks/README.md")
                .anyMatch(l -> l.startsWith("node-agent/docs/tests.md"));
        assertThat(broken)
                .as("links to headings benchmarks/README.md does not have")
                .isEmpty();
    }

    @Test
    void theAnchorsAreGitHubs() {
        assertThat(anchors("""
                ## The node agent at run time (`BENCH_ONLY=agent`)
                ### Set-up
                ### Set-up
                ## Born pinned, NRI against the cgroup path (`BENCH_ONLY=born`)
                ```
                # not a heading
                ```
                """))
                .containsExactlyInAnyOrder(
                        "the-node-agent-at-run-time-bench_onlyagent",
                        "set-up",
                        "set-up-1",
                        "born-pinned-nri-against-the-cgroup-path-bench_onlyborn");
    }

    private static void collect(
            Matcher m, Set<String> anchors, String file, List<String> checked, List<String> broken) {
        while (m.find()) {
            checked.add(file + ": #" + m.group(1));
            if (!anchors.contains(m.group(1))) {
                broken.add(file + ": #" + m.group(1));
            }
        }
    }

    /** The rows between the markers, by the header's column names. */
    static List<Row> rows(String readme) {
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        assertThat(begin).as("%s has %s", README, BEGIN).isNotNegative();
        assertThat(end).as("%s has %s after %s", README, END, BEGIN).isGreaterThan(begin);
        List<String> lines = readme.substring(begin + BEGIN.length(), end)
                .lines()
                .filter(l -> l.startsWith("|"))
                .toList();
        assertThat(lines).as("the table between the markers").hasSizeGreaterThan(2);
        List<String> head = cells(lines.getFirst());
        Map<String, Integer> column = new HashMap<>();
        for (int i = 0; i < head.size(); i++) {
            column.put(head.get(i), i);
        }
        assertThat(column).containsKeys("Command", "Measure", "Budget", "Latest", "Run, code");
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(2, lines.size())) {
            List<String> c = cells(line);
            assertThat(c).as("the cells of %s", line).hasSameSizeAs(head);
            rows.add(new Row(
                    c.get(column.get("Command")).replace("`", ""),
                    c.get(column.get("Measure")),
                    c.get(column.get("Budget")),
                    c.get(column.get("Latest")),
                    c.get(column.get("Run, code"))));
        }
        return rows;
    }

    private static List<String> cells(String line) {
        String inner = line.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        return Arrays.stream(inner.split("\\|", -1)).map(String::strip).toList();
    }

    /** The groups {@code BENCH_ONLY} takes: the arms of the script's case over them. */
    static Set<String> benchGroups(String script) {
        int loop = script.indexOf("for group in ${BENCH_ONLY");
        assertThat(loop).as("scripts/bench's loop over BENCH_ONLY").isNotNegative();
        String body = script.substring(loop, script.indexOf("\ndone", loop));
        Set<String> groups = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^    ([a-z]+(?:\\|[a-z]+)*)\\)").matcher(body);
        while (m.find()) {
            groups.addAll(List.of(m.group(1).split("\\|")));
        }
        return groups;
    }

    /** The budget column of DESIGN's "Performance budgets" table, each cell cut into its budgets. */
    static Set<String> designBudgets(String design) {
        int section = design.indexOf("## Performance budgets");
        assertThat(section).as("docs/DESIGN.md has its Performance budgets").isNotNegative();
        int next = design.indexOf("\n## ", section + 1);
        List<String> lines = design.substring(section, next < 0 ? design.length() : next)
                .lines()
                .filter(l -> l.startsWith("|"))
                .toList();
        Set<String> budgets = new LinkedHashSet<>();
        for (String line : lines.subList(2, lines.size())) {
            budgets.addAll(budgetParts(cells(line).getLast()));
        }
        return budgets;
    }

    /** A cell may hold several budgets: "< 1 ms, < 1 MiB", "< 96 MiB / < 5 millicores; ready < 2 s". */
    static List<String> budgetParts(String cell) {
        return Arrays.stream(cell.split(", |; | / "))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** The anchors GitHub gives the headings: lower case, punctuation but - and _ dropped, repeats numbered. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced || !line.matches("#{1,6} .*")) {
                continue;
            }
            String slug = line.replaceFirst("^#+ ", "")
                    .strip()
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    private static String read(String file) throws IOException {
        return Files.readString(Repository.resolve(file));
    }
}
