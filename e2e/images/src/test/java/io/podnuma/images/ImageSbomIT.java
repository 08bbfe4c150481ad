package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.oci.TarEntries;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each Java image's SBOM as built: the file beside the tar is the one in the image, it is CycloneDX 1.6 JSON, and it
 * names everything the image's layer holds (SbomAgainstLayer, reading the layer's bytes): every Maven artifact of the
 * jar on the image's class path with its version, the runtime with its version, each host library's package.
 */
class ImageSbomIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @EnumSource(names = {"NODE_AGENT", "OPERATOR"})
    void theSbomBesideTheTarIsInTheImageAndNamesEverythingItsLayerHolds(PodnumaImage image) throws IOException {
        TarEntries layer = BuiltImages.layer(TarEntries.read(BuiltImages.tar(image)));
        byte[] beside = Files.readAllBytes(image.sbomIn(BuiltImages.dir()));
        TarEntries.Entry inside = layer.get("opt/podnuma/sbom.cdx.json");
        assertThat(inside.content()).isEqualTo(beside);
        assertThat(inside.mode()).isEqualTo(0644);

        JsonNode sbom = JSON.readTree(beside);
        assertThat(sbom.path("bomFormat").asText()).isEqualTo("CycloneDX");
        assertThat(sbom.path("specVersion").asText()).isEqualTo("1.6");
        assertThat(sbom.path("metadata").path("component").path("name").asText())
                .isEqualTo(image.repository());
        assertThat(sbom.path("metadata").path("component").path("version").asText())
                .isEqualTo(BuiltImages.tag());

        List<String> unlisted = SbomAgainstLayer.unlisted(layer, sbom);
        assertThat(unlisted).as("in the image, not in its SBOM").isEmpty();

        // The class path is one shaded jar: the program, and the artifacts it bundles (dozens: fabric8, Jackson, ...).
        String jar = image == PodnumaImage.NODE_AGENT ? "opt/podnuma/node-agent.jar" : "opt/podnuma/operator.jar";
        List<String[]> artifacts = SbomAgainstLayer.artifacts(layer.get(jar).content());
        assertThat(artifacts).hasSizeGreaterThan(20);
        List<String> maven = new ArrayList<>();
        sbom.path("components").forEach(c -> {
            if (c.path("purl").asText().startsWith("pkg:maven/")) {
                maven.add(c.path("group").asText() + ":" + c.path("name").asText() + ":"
                        + c.path("version").asText());
            }
        });
        assertThat(maven).hasSameSizeAs(artifacts);
        String runtimeVersion = SbomAgainstLayer.javaVersion(
                layer.get("opt/podnuma/jre/release").text());
        assertThat(runtimeVersion).isEqualTo(Runtime.version().toString().replaceAll("[+-].*", ""));
    }
}
