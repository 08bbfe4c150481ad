package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.util.Base64;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * Chart.yaml: the chart's version, an appVersion that is the Maven project's (the images' tag), and its icon, which
 * is {@code helm/icon.svg} inline.
 */
class ChartMetadataTest {

    @Test
    void appVersionIsTheProjectVersion() {
        String projectVersion = System.getProperty("podnuma.project.version");
        assertThat(projectVersion)
                .as("podnuma.project.version (set by helm/pom.xml)")
                .isNotBlank();
        assertThat(ChartFiles.chartYaml().path("appVersion").asText()).isEqualTo(projectVersion);
    }

    @Test
    void declaresTheApiAndTheKubernetesItNeeds() {
        JsonNode chart = ChartFiles.chartYaml();
        assertThat(chart.path("apiVersion").asText()).isEqualTo("v2");
        assertThat(chart.path("name").asText()).isEqualTo("podnuma");
        assertThat(chart.path("version").asText()).isEqualTo("0.1.0");
        // ValidatingAdmissionPolicy v1, pod-bound token node names, and the kubelet podnuma is tested with.
        assertThat(chart.path("kubeVersion").asText()).isEqualTo(">=1.37.0-0");
    }

    @Test
    void theIconIsTheChartsOwnSvgInlineAndThereIsNoMadeUpAddress() throws Exception {
        JsonNode chart = ChartFiles.chartYaml();
        String prefix = "data:image/svg+xml;base64,";
        assertThat(chart.path("icon").asText()).startsWith(prefix);
        byte[] svg = Base64.getDecoder().decode(chart.path("icon").asText().substring(prefix.length()));
        assertThat(svg).isEqualTo(Files.readAllBytes(ChartFiles.chart().resolveSibling("icon.svg")));
        Document picture =
                DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg));
        assertThat(picture.getDocumentElement().getTagName()).isEqualTo("svg");
        // The project has no public address yet: home and sources come with one, not before.
        assertThat(chart.has("home")).isFalse();
        assertThat(chart.has("sources")).isFalse();
    }
}
