package io.podnuma.crds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Fails the build when a committed copy of the CRDs (crds/generated, the Helm chart) lags behind the Java types. */
class GeneratedCrdsUpToDateTest {

    @Test
    void committedCrdsMatchTheJavaTypes() {
        Path generatedDir = Path.of(requiredProperty("podnuma.crds.generatedDir"));
        List<Path> targets = CommittedCrds.targets(requiredProperty("podnuma.crds.targets"));
        assertThat(targets).as("committed CRD folders").isNotEmpty();

        for (Path target : targets) {
            assertThat(CommittedCrds.problems(generatedDir, target))
                    .as(
                            "The committed CRDs in %s are stale. Refresh them with `%s` and commit the result.",
                            target, CommittedCrds.REFRESH_COMMAND)
                    .isEmpty();
        }
    }

    private static String requiredProperty(String name) {
        String value = System.getProperty(name);
        assertThat(value)
                .as("system property %s (set by crds/pom.xml; run through Maven)", name)
                .isNotBlank();
        return value;
    }
}
