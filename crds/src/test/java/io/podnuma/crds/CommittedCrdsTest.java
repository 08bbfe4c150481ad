package io.podnuma.crds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommittedCrdsTest {

    @TempDir
    Path tmp;

    private Path dir(String name, String... fileAndContent) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        for (int i = 0; i < fileAndContent.length; i += 2) {
            Files.writeString(dir.resolve(fileAndContent[i]), fileAndContent[i + 1]);
        }
        return dir;
    }

    @Test
    void identicalCopyHasNoProblem() throws IOException {
        Path generated = dir("gen", "a.podnuma.io-v1.yml", "x: 1\n", "b.podnuma.io-v1.yml", "y: 2\n");
        Path committed = dir("com", "a.podnuma.io-v1.yml", "x: 1\n", "b.podnuma.io-v1.yml", "y: 2\n");

        assertThat(CommittedCrds.problems(generated, committed)).isEmpty();
    }

    @Test
    void changedMissingAndLeftoverFilesAreEachReported() throws IOException {
        Path generated = dir("gen", "a.podnuma.io-v1.yml", "x: 2\n", "b.podnuma.io-v1.yml", "y: 2\n");
        Path committed = dir("com", "a.podnuma.io-v1.yml", "x: 1\n", "old.podnuma.io-v1.yml", "z: 0\n");

        assertThat(CommittedCrds.problems(generated, committed))
                .containsExactly(
                        committed.resolve("a.podnuma.io-v1.yml") + " differs from the generated "
                                + generated.resolve("a.podnuma.io-v1.yml"),
                        committed.resolve("b.podnuma.io-v1.yml") + " is missing",
                        committed.resolve("old.podnuma.io-v1.yml")
                                + " is no longer generated (a CRD was removed or renamed)");
    }

    @Test
    void aSingleChangedByteIsStale() throws IOException {
        Path generated = dir("gen", "a.podnuma.io-v1.yml", "description: \"CPUs\"\n");
        Path committed = dir("com", "a.podnuma.io-v1.yml", "description: \"CPUS\"\n");

        assertThat(CommittedCrds.problems(generated, committed)).hasSize(1);
    }

    @Test
    void otherFilesInTheTargetAreIgnored() throws IOException {
        Path generated = dir("gen", "a.podnuma.io-v1.yml", "x: 1\n");
        Path committed = dir("com", "a.podnuma.io-v1.yml", "x: 1\n", "README.md", "chart CRDs\n");

        assertThat(CommittedCrds.problems(generated, committed)).isEmpty();
    }

    @Test
    void aTargetNotCreatedYetMissesEveryFile() throws IOException {
        Path generated = dir("gen", "a.podnuma.io-v1.yml", "x: 1\n");

        assertThat(CommittedCrds.problems(generated, tmp.resolve("absent")))
                .containsExactly(tmp.resolve("absent").resolve("a.podnuma.io-v1.yml") + " is missing");
    }

    @Test
    void emptyGenerationIsAnErrorNotASuccess() throws IOException {
        Path generated = dir("gen");
        Path committed = dir("com", "a.podnuma.io-v1.yml", "x: 1\n");

        assertThat(CommittedCrds.problems(generated, committed))
                .singleElement()
                .asString()
                .contains("the crd-generator plugin did not run");
    }

    @Test
    void targetsWhoseParentIsAbsentAreSkipped() throws IOException {
        dir("chart");
        String list = tmp.resolve("generated") + ", " + tmp.resolve("chart/crds") + "," + tmp.resolve("nochart/crds");

        assertThat(CommittedCrds.targets(list)).containsExactly(tmp.resolve("generated"), tmp.resolve("chart/crds"));
    }
}
