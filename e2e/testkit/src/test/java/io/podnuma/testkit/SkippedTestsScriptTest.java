package io.podnuma.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/skipped-tests}, which {@code scripts/test} runs with {@code CI=true}, on report files shaped as
 * surefire and failsafe write them: a skipped test fails the run unless the allow-list names it.
 */
class SkippedTestsScriptTest {

    private static final String PASSED = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuite name="io.podnuma.a.PassingIT" tests="1" skipped="0">
              <testcase name="works" classname="io.podnuma.a.PassingIT" time="0.1"/>
            </testsuite>
            """;
    private static final String SKIPPED = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuite name="io.podnuma.b.RealNodeThingE2E" tests="2" skipped="1">
              <testcase name="pins" classname="io.podnuma.b.RealNodeThingE2E" time="0">
                <skipped message="not root: the real node needs root"/>
              </testcase>
              <testcase name="other" classname="io.podnuma.b.RealNodeThingE2E" time="0.2"/>
            </testsuite>
            """;

    /** failsafe's shape: no message attribute, the assumption in the exception's text. */
    private static final String ABORTED = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuite name="io.podnuma.c.K3sE2E" tests="1" skipped="1">
              <testcase name="journey" classname="io.podnuma.c.K3sE2E" time="0.5">
                <skipped type="org.opentest4j.TestAbortedException"><![CDATA[org.opentest4j.TestAbortedException: \
            Assumption failed: no Docker engine for k3s
            	at org.junit.jupiter.api.Assumptions.throwAssumptionFailed(Assumptions.java:340)
            ]]></skipped>
              </testcase>
            </testsuite>
            """;

    @TempDir
    Path dir;

    @Test
    void nothingSkippedPasses() throws Exception {
        report("a", "failsafe", "io.podnuma.a.PassingIT", PASSED);
        Run r = run(null);
        assertThat(r.exit()).isZero();
        assertThat(r.output()).contains("no test skipped");
    }

    @Test
    void aSkipOutsideTheListFailsAndIsNamedWithItsReason() throws Exception {
        report("a", "failsafe", "io.podnuma.a.PassingIT", PASSED);
        report("b", "failsafe", "io.podnuma.b.RealNodeThingE2E", SKIPPED);
        Run r = run("io.podnuma.b.OtherE2E the Docker engine\n");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.output())
                .contains("SKIPPED: io.podnuma.b.RealNodeThingE2E#pins: not root: the real node needs root")
                .contains("1 test(s) skipped that")
                .doesNotContain("#other");
    }

    @Test
    void failsafesAbortedAssumptionIsNamedWithItsReason() throws Exception {
        report("c", "failsafe", "io.podnuma.c.K3sE2E", ABORTED);
        Run r = run(null);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.output())
                .contains("SKIPPED: io.podnuma.c.K3sE2E#journey: Assumption failed: no Docker engine for k3s");
    }

    @Test
    void aSkipTheListNamesPassesAndIsStillPrinted() throws Exception {
        report("b", "surefire", "io.podnuma.b.RealNodeThingE2E", SKIPPED);
        for (String entry : List.of("io.podnuma.b.RealNodeThingE2E", "io.podnuma.b.RealNodeThingE2E#pins")) {
            Run r = run("# comment\n" + entry + " needs a Docker engine\n");
            assertThat(r.exit()).as(entry).isZero();
            assertThat(r.output()).contains("skipped, allowed: io.podnuma.b.RealNodeThingE2E#pins");
        }
        assertThat(run("io.podnuma.b.RealNodeThingE2E#other another test\n").exit())
                .as("a method entry allows that method only")
                .isEqualTo(1);
    }

    private void report(String module, String plugin, String testClass, String xml) throws IOException {
        Path reports = Files.createDirectories(dir.resolve(module + "/target/" + plugin + "-reports"));
        Files.writeString(reports.resolve("TEST-" + testClass + ".xml"), xml);
    }

    private Run run(String allowed) throws Exception {
        Path list = dir.resolve("allowed-skips");
        if (allowed != null) {
            Files.writeString(list, allowed);
        }
        Process p = new ProcessBuilder(
                        "bash", Repository.resolve("scripts/skipped-tests").toString(), dir.toString(), list.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    private record Run(int exit, String output) {}
}
