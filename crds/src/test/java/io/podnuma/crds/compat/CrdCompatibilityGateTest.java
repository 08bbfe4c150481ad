package io.podnuma.crds.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The build's CRDs against the last release's copies: nothing an earlier client or stored object relies on breaks. */
class CrdCompatibilityGateTest {

    private static final String HOW = "A breaking change needs a new API version (crds/README.md, \"Upgrades\"):"
            + " keep the released version served as it was and add the new one.";

    @Test
    void everyCurrentCrdIsCompatibleWithTheLastRelease() {
        Path release = ReleasedCrds.latest();
        Map<String, JsonNode> released = ReleasedCrds.read(release);
        Map<String, JsonNode> current = ReleasedCrds.read(
                Path.of(System.getProperty("podnuma.crds.generatedDir", "target/classes/META-INF/fabric8")));
        assertThat(released).as("CRDs in %s", release).isNotEmpty();
        List<String> problems = new ArrayList<>();
        released.forEach((name, crd) -> {
            JsonNode now = current.get(name);
            if (now == null) {
                problems.add(name + ": CRD removed");
            } else {
                problems.addAll(CrdCompatibility.breakingChanges(crd, now));
            }
        });
        assertThat(problems)
                .as("breaking changes against release %s. %s", release.getFileName(), HOW)
                .isEmpty();
    }
}
