package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.oci.TarEntries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator image as built: its entrypoint carries operator/jvm.flags, it runs as user 65532, and its root
 * filesystem alone (its own jlinked runtime, jar and glibc, read-only, as that user) runs the operator's command line
 * through its settings check.
 */
class OperatorImageIT {
    private static TarEntries outer;
    private static TarEntries layer;

    @TempDir
    static Path root;

    @BeforeAll
    static void readImage() throws IOException {
        outer = TarEntries.read(BuiltImages.tar(PodnumaImage.OPERATOR));
        layer = BuiltImages.layer(outer);
        BuiltImages.extract(layer, root);
    }

    @Test
    void theImageIsNamedRunsAsNonRootAndItsEntrypointRunsTheJarWithTheOperatorsJvmFlags() throws IOException {
        assertThat(BuiltImages.imageName(outer))
                .isEqualTo(PodnumaImage.OPERATOR.name(BuiltImages.tag()).reference());
        JsonNode process = BuiltImages.config(outer).path("config");
        List<String> expected =
                BuiltImages.expectedEntrypoint(Path.of("../../operator/jvm.flags"), "/opt/podnuma/operator.jar");
        assertThat(BuiltImages.strings(process.path("Entrypoint"))).containsExactlyElementsOf(expected);
        assertThat(BuiltImages.strings(process.path("Cmd"))).containsExactly("run");
        assertThat(process.path("User").asText()).isEqualTo("65532:65532");
        assertThat(BuiltImages.strings(process.path("Env"))).contains("MALLOC_ARENA_MAX=2");
        assertThat(layer.get("etc/passwd").text()).contains("nonroot:x:65532:65532:");
        assertThat(layer.get("opt/podnuma/operator.jar").mode()).isEqualTo(0644);
        // No public CAs: the operator trusts the cluster's CA alone.
        assertThat(layer.names()).noneMatch(n -> n.endsWith("/security/cacerts"));
        assertThat(layer.get("opt/podnuma/jre/release").text()).doesNotContain("jdk.compiler", "jdk.jshell");
    }

    @Test
    void asItsUserOnItsReadOnlyRootTheOperatorStartsAndChecksItsSettings() throws Exception {
        assumeThat(BuiltImages.isRoot()).as("chroot into the image needs root").isTrue();
        List<String> entrypoint =
                BuiltImages.strings(BuiltImages.config(outer).path("config").path("Entrypoint"));

        List<String> version = new ArrayList<>(entrypoint);
        version.add("--version");
        BuiltImages.Run v = BuiltImages.runReadOnly(root, "65532:65532", version);
        assertThat(v.exitCode()).as(v.output()).isZero();
        assertThat(v.output()).contains("podnuma operator");

        // run without the one required setting: the settings are read and refused before any API server is asked.
        List<String> run = new ArrayList<>(entrypoint);
        run.addAll(List.of("run", "--max-unavailable=0"));
        BuiltImages.Run r = BuiltImages.runReadOnly(root, "65532:65532", run);
        assertThat(r.exitCode()).as(r.output()).isNotZero();
        assertThat(r.output()).contains("agentImage is required").contains("flag --max-unavailable = \"0\"");
    }
}
