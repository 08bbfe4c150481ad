package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.Repository;
import io.podnuma.testkit.soak.FaultKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The figures the docs give for the default runs of the soaks and of the API server outage, held to the code. When CI's
 * time budget shortened those runs, five docs kept the old numbers and nothing noticed. Constants of this module's
 * tests are read from their classes; those of e2e and operator from their source text, since those modules are not on
 * this test classpath (and must not be: they depend on this one).
 */
class DocsFiguresTest {

    /** Surefire runs in the module's directory; the docs live across the repository. */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private static final String REAL_NODE_SOAK = "e2e/src/test/java/io/podnuma/e2e/soak/RealNodeSoakE2E.java";
    private static final String OPERATOR_SOAK =
            "operator/src/test/java/io/podnuma/operator/controller/OperatorFailoverSoakIT.java";

    @Test
    void theProcessSoaksDefaultDurationIsTheOneTheDocsGive() throws IOException {
        long seconds = FaultSoakIT.SHORT_DURATION.toSeconds();
        assertThat(figures(
                        "node-agent/README.md", "`FaultSoakIT` \\(agent processes on a kwok node, (\\d+) s of faults"))
                .containsExactly(String.valueOf(seconds));
        assertThat(figures("node-agent/docs/tests.md", "short version in the default run, (\\d+) s of faults"))
                .containsExactly(String.valueOf(seconds));
    }

    @Test
    void theCrashSoaksDefaultInjectionsAreTheOnesTheDocsGive() throws IOException {
        String injections = String.valueOf(CrashSoakTest.SHORT);
        assertThat(figures("node-agent/README.md", "(\\d+) injections in the default run"))
                .containsExactly(injections);
        assertThat(figures("node-agent/docs/behaviour.md", "The default run's (\\d+) injections"))
                .containsExactly(injections);
    }

    @Test
    void theRealNodeSoaksInjectionsAndKindsAreTheOnesTheDocsGive() throws IOException {
        String source = read(REAL_NODE_SOAK);
        String injections = single(source, "static final int DEFAULT_INJECTIONS = (\\d+);");
        String kinds = String.valueOf(listedKinds(source).size());
        assertThat(figures(
                        "node-agent/README.md",
                        "`RealNodeSoakE2E` in module e2e \\((\\d+) injections in `-Pall-tests`"))
                .containsExactly(injections);
        assertThat(figures("e2e/README.md", "`-Dpodnuma.soak.node.injections=N` \\((\\d+):"))
                .containsExactly(injections);
        assertThat(figures("node-agent/README.md", "(\\d+) cover every kind")).containsExactly(kinds);
        assertThat(figures("e2e/README.md", "(\\d+) cover every kind")).containsExactly(kinds);
    }

    @Test
    void theApiServerOutageLastsWhatTheDocsSay() throws IOException {
        String seconds = String.valueOf(ApiServerOutageIT.OUTAGE.toSeconds());
        assertThat(figures("node-agent/docs/tests.md", "with `kube-apiserver` killed for (\\d+) s"))
                .containsExactly(seconds);
        assertThat(figures("node-agent/docs/tests.md", "for the rest of the (\\d+) s"))
                .containsExactly(seconds);
    }

    @Test
    void theOperatorSoaksDefaultDurationIsTheOneTheDocsGive() throws IOException {
        String source = read(OPERATOR_SOAK);
        String literal = single(source, "\"podnuma\\.soak\\.duration\", \"(PT\\w+)\"");
        String seconds = String.valueOf(Duration.parse(literal).toSeconds());
        assertThat(figures("operator/README.md", "in `-Pall-tests` with (\\d+) s of faults"))
                .containsExactly(seconds);
        assertThat(figures("operator/README.md", "the default test run has `(PT\\w+)`"))
                .containsExactly(literal);
        assertThat(figures("scripts/soak", "the default test run has (PT\\w+)")).containsExactly(literal);
        assertThat(figures(OPERATOR_SOAK, "Short by default \\(\\{@code (PT\\w+)\\} of faults"))
                .containsExactly(literal);
    }

    @Test
    void theTopLevelReadmeNamesEveryFaultOfTheOperatorSoak() throws IOException {
        // How the README's fault soak row words each kind; a kind added to the soak fails here until it is described.
        Map<FaultKind, String> words = new EnumMap<>(FaultKind.class);
        words.put(FaultKind.OPERATOR_KILL9, "leader kill -9");
        words.put(FaultKind.OPERATOR_SIGTERM, "SIGTERM");
        words.put(FaultKind.OPERATOR_FOLLOWER_KILL9, "standby kill");
        words.put(FaultKind.API_SERVER_RESTART, "API server restart");
        words.put(FaultKind.API_SERVER_OUTAGE, "API server outage");
        words.put(FaultKind.NODE_LABEL_REMOVED, "node label removed");
        words.put(FaultKind.POLICY_DELETED, "policy deleted");
        assertThat(listedKinds(read(OPERATOR_SOAK))).containsExactlyInAnyOrderElementsOf(words.keySet());
        List<String> lists =
                figures("README.md", "\\(`OperatorFailoverSoakIT`, all \\d+ kinds in every run: ([^;)]*)[;)]");
        assertThat(lists).hasSize(1);
        assertThat(words.values()).allSatisfy(w -> assertThat(lists.getFirst()).contains(w));
    }

    @Test
    void theDocsGiveHowManyKindsEachSoakInjectsInEveryRun() throws IOException {
        // Every kind at least once in the default run: the count the docs give is the soak's list.
        String process = String.valueOf(FaultSoakIT.KINDS.size());
        assertThat(figures("node-agent/docs/tests.md", "each of its (\\d+) fault kinds once first"))
                .containsExactly(process);
        assertThat(figures("README.md", "the process driver \\(`FaultSoakIT`, all (\\d+) kinds in every run"))
                .containsExactly(process);
        String operator = String.valueOf(listedKinds(read(OPERATOR_SOAK)).size());
        assertThat(figures("operator/README.md", "each of its (\\d+) fault kinds once first"))
                .containsExactly(operator);
        assertThat(figures("README.md", "\\(`OperatorFailoverSoakIT`, all (\\d+) kinds in every run"))
                .containsExactly(operator);
    }

    @Test
    void theDocsNameTheNewFaultsOfTheProcessSoak() throws IOException {
        assertThat(FaultSoakIT.KINDS).contains(FaultKind.NODE_LABEL_REMOVED);
        assertThat(read("node-agent/docs/tests.md").replaceAll("\\s+", " "))
                .contains("node label removed with the restore cut");
        assertThat(figures("README.md", "the process driver \\(`FaultSoakIT`([^)]*)\\)"))
                .singleElement()
                .asString()
                .contains("node label removed");
    }

    @Test
    void everyTestTheReadmeSaysHoldsACapabilityExists() throws IOException {
        // "Where it stands" is a table of what works and the tests that hold it: a renamed or deleted test fails here
        // until the row names what holds the capability now.
        String readme = read("README.md");
        int start = readme.indexOf("\n## Where it stands\n");
        assertThat(start).as("README.md has its \"Where it stands\"").isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        Matcher m = Pattern.compile("`(\\w+(?:Test|IT|E2E))`")
                .matcher(readme.substring(start, end < 0 ? readme.length() : end));
        Set<String> named = new TreeSet<>();
        while (m.find()) {
            named.add(m.group(1));
        }
        assertThat(named).as("the tests \"Where it stands\" names").hasSizeGreaterThan(20);
        Set<String> missing = new TreeSet<>(named);
        missing.removeAll(testSources());
        assertThat(missing)
                .as("tests README.md's \"Where it stands\" names that have no source file")
                .isEmpty();
    }

    /** The simple names of the repository's test classes, from their files. */
    private static Set<String> testSources() throws IOException {
        Set<String> names = new TreeSet<>();
        for (Path file : Repository.files(".java")) {
            if (file.toString().contains("/src/test/")) {
                String name = file.getFileName().toString();
                names.add(name.substring(0, name.length() - ".java".length()));
            }
        }
        return names;
    }

    /** The fault kinds of a soak's {@code KINDS} list. */
    private static List<FaultKind> listedKinds(String source) {
        String list = single(source, "static final List<FaultKind> KINDS = List\\.of\\(([^)]*)\\);");
        List<FaultKind> kinds = new ArrayList<>();
        Matcher m = Pattern.compile("FaultKind\\.(\\w+)").matcher(list);
        while (m.find()) {
            kinds.add(FaultKind.valueOf(m.group(1)));
        }
        assertThat(kinds).as("the KINDS of the soak").isNotEmpty();
        return kinds;
    }

    /** Group 1 of every match of {@code regex} in the file, its whitespace folded so a figure may wrap a line. */
    private static List<String> figures(String file, String regex) throws IOException {
        Matcher m = Pattern.compile(regex).matcher(read(file).replaceAll("\\s+", " "));
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    private static String single(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("'%s' in the source", regex).isTrue();
        String value = m.group(1);
        assertThat(m.find()).as("'%s' once in the source", regex).isFalse();
        return value;
    }

    private static String read(String file) throws IOException {
        return Files.readString(ROOT.resolve(file));
    }
}
