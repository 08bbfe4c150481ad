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

    /**
     * Breaking changes against the last release made on purpose, each with its reason. Only what {@code kubectl get}
     * prints may be here (no stored object or API client reads a printer column); an entry that no longer occurs must
     * go, so the list empties with the next release copy.
     */
    private static final Map<String, String> ACCEPTED = Map.of(
            "numaresourcepolicies.podnuma.io v1alpha1: printer column Ready: jsonPath changed from"
                    + " \".status.nodesReady\" to \".status.conditions[?(@.type==\\\"Ready\\\")].status\"",
            "issue 32: READY is the Ready condition's status in nrp as in nns; the count is NODES-READY",
            "numaresourcepolicies.podnuma.io v1alpha1: printer column Ready: type changed from \"integer\" to"
                    + " \"string\"",
            "issue 32: as above");

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
        assertThat(ACCEPTED.keySet())
                .as("accepted breaking changes that no longer occur: remove them")
                .isSubsetOf(problems);
        problems.removeAll(ACCEPTED.keySet());
        assertThat(problems)
                .as("breaking changes against release %s. %s", release.getFileName(), HOW)
                .isEmpty();
    }
}
