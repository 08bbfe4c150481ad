package io.podnuma.crds;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import java.nio.file.Path;

/** What every IT of this module needs: the CRDs installed as a user would, and kubectl conveniences. */
public final class ItSupport {

    /** The committed CRDs: GeneratedCrdsUpToDateTest keeps them equal to what the Java types generate. */
    static final Path COMMITTED = Path.of("generated");

    private ItSupport() {}

    /** Applies the committed CRDs and waits until the API server serves them. */
    public static void installCrds(ControlPlane cp) {
        assertThat(cp.installCrds(
                        COMMITTED.resolve(GeneratedCrds.POLICIES + "-v1.yml"),
                        COMMITTED.resolve(GeneratedCrds.NODE_STATES + "-v1.yml")))
                .containsExactly(GeneratedCrds.POLICIES, GeneratedCrds.NODE_STATES);
    }

    public static CommandResult succeeded(CommandResult result) {
        assertThat(result.exitCode())
                .as("kubectl failed; stdout: %s stderr: %s", result.stdout(), result.stderr())
                .isZero();
        return result;
    }

    /** The object as stored, read as raw JSON so no Java-side default can hide what the server did. */
    public static JsonNode getJson(ControlPlane cp, String resource, String name) {
        return succeededJson(cp, "get", resource, name, "-o", "json");
    }

    public static JsonNode succeededJson(ControlPlane cp, String... kubectlArgs) {
        return GeneratedCrds.SERIALIZATION.unmarshal(
                succeeded(cp.kubectl(kubectlArgs)).stdout(), JsonNode.class);
    }
}
