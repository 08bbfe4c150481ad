package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The built helm installs and uninstalls a chart into the plane, honouring the chart's kubeVersion. */
@ExtendWith(ControlPlaneExtension.class)
class HelmIT {

    private static final String NAMESPACE = "helm-it";

    private static Path chart(Path dir, String kubeVersion) throws IOException {
        Path chart = dir.resolve("probe");
        Files.createDirectories(chart.resolve("templates"));
        Files.writeString(chart.resolve("Chart.yaml"), """
                apiVersion: v2
                name: probe
                version: 0.1.0
                kubeVersion: "%s"
                """.formatted(kubeVersion));
        Files.writeString(chart.resolve("values.yaml"), "greeting: hello\n");
        Files.writeString(chart.resolve("templates/configmap.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: {{ .Release.Name }}-probe
                data:
                  greeting: {{ .Values.greeting | quote }}
                  kubeVersion: {{ .Capabilities.KubeVersion.Version | quote }}
                """);
        return chart;
    }

    @Test
    void helmIsTheBuiltRelease(ControlPlane plane) {
        assertThat(plane.helm("version", "--short").assertSuccess().stdout()).startsWith("v4.3.1");
    }

    @Test
    void installsAndUninstallsAChart(ControlPlane plane, @TempDir Path dir) throws IOException {
        Path chart = chart(dir, ">=1.37.0-0");
        plane.helm(
                        "install",
                        "first",
                        chart.toString(),
                        "--namespace",
                        NAMESPACE,
                        "--create-namespace",
                        "--set",
                        "greeting=bonjour",
                        "--wait",
                        "--timeout",
                        "60s")
                .assertSuccess();

        ConfigMap installed = plane.client()
                .configMaps()
                .inNamespace(NAMESPACE)
                .withName("first-probe")
                .get();
        assertThat(installed.getData()).containsEntry("greeting", "bonjour").containsEntry("kubeVersion", "v1.37.2");
        assertThat(plane.helm("list", "--namespace", NAMESPACE, "--short")
                        .assertSuccess()
                        .stdout())
                .isEqualTo("first\n");

        plane.helm("uninstall", "first", "--namespace", NAMESPACE, "--wait").assertSuccess();
        assertThat(plane.client()
                        .configMaps()
                        .inNamespace(NAMESPACE)
                        .withName("first-probe")
                        .get())
                .isNull();
    }

    @Test
    void refusesAChartForAnotherKubernetesVersion(ControlPlane plane, @TempDir Path dir) throws IOException {
        Path chart = chart(dir, "<1.30.0-0");
        CommandResult result =
                plane.helm("install", "too-new", chart.toString(), "--namespace", NAMESPACE, "--create-namespace");
        assertThat(result.assertFailure().stderr())
                .contains("chart requires kubeVersion: <1.30.0-0 which is incompatible with Kubernetes v1.37.2");
    }
}
