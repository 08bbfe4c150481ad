package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Chart.yaml: the chart's version, and an appVersion that is the Maven project's (the images' tag). */
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
}
