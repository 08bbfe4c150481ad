package io.podnuma.crds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The refresh step behind -Pupdate-crds: src/build/sync-crds.sh, run with bash as the profile does. */
class SyncCrdsScriptTest {

    static final Path SCRIPT = Path.of("src/build/sync-crds.sh");

    @TempDir
    Path tmp;

    private record Run(int exitCode, String output) {}

    private Run sync(Path generated, String targets) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", SCRIPT.toAbsolutePath().toString(), generated.toString(), targets)
                .redirectErrorStream(true)
                .start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS))
                .as("sync-crds.sh finished")
                .isTrue();
        return new Run(
                process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void copiesIntoEveryTargetReplacingOldCrdsAndKeepingOtherFiles() throws Exception {
        Path generated = Files.createDirectories(tmp.resolve("gen"));
        Files.writeString(generated.resolve("a.podnuma.io-v1.yml"), "new\n");
        Path chart = Files.createDirectories(tmp.resolve("chart/crds"));
        Files.writeString(chart.resolve("removed.podnuma.io-v1.yml"), "old\n");
        Files.writeString(chart.resolve("other-crd.yaml"), "keep\n");

        Run run = sync(generated, tmp.resolve("committed") + "," + chart);

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(tmp.resolve("committed/a.podnuma.io-v1.yml")).hasContent("new");
        assertThat(chart.resolve("a.podnuma.io-v1.yml")).hasContent("new");
        assertThat(chart.resolve("removed.podnuma.io-v1.yml")).doesNotExist();
        assertThat(chart.resolve("other-crd.yaml")).hasContent("keep");
        assertThat(CommittedCrds.problems(generated, chart)).isEmpty();
    }

    @Test
    void skipsATargetWhoseParentDoesNotExist() throws Exception {
        Path generated = Files.createDirectories(tmp.resolve("gen"));
        Files.writeString(generated.resolve("a.podnuma.io-v1.yml"), "x\n");

        Run run = sync(generated, tmp.resolve("no-chart/crds").toString());

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("skipping");
        assertThat(tmp.resolve("no-chart")).doesNotExist();
    }

    @Test
    void failsWhenNothingWasGenerated() throws Exception {
        Path generated = Files.createDirectories(tmp.resolve("gen"));

        Run run = sync(generated, tmp.resolve("committed").toString());

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.output()).contains("did the crd-generator plugin run?");
    }
}
