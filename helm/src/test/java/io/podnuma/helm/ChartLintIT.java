package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code helm lint --strict}: with the defaults, and with every optional part on. */
@ExtendWith(ControlPlaneExtension.class)
class ChartLintIT {

    /** Every optional part of the chart switched on, and every list and map given an entry. */
    static final String EVERYTHING_ON = """
            commonLabels: {env: test}
            imagePullSecrets: [{name: regcred}]
            operator:
              replicas: 3
              hostNetwork: true
              apiServer: 10.0.0.1:6443
              nodeSelector: {role: control}
              tolerations: [{key: control, operator: Exists, effect: NoSchedule}]
              affinity:
                podAntiAffinity:
                  preferredDuringSchedulingIgnoredDuringExecution:
                    - weight: 100
                      podAffinityTerm:
                        topologyKey: kubernetes.io/hostname
                        labelSelector: {matchLabels: {app.kubernetes.io/component: operator}}
              priorityClassName: system-cluster-critical
              podLabels: {team: perf}
              podAnnotations: {note: hello}
            agent:
              nodeSelector: {kubernetes.io/os: linux}
              podLabels: {team: perf}
              apiServer: 10.0.0.1:6443
              network: pod
            nodeResourceTopology: {enabled: true, installCrd: true}
            admissionPolicy: {enabled: true}
            """;

    @Test
    void theDefaultsLintClean(ControlPlane plane) {
        assertClean(plane.helm("lint", "--strict", "--kube-version", Helm.KUBE_VERSION, chart()));
    }

    @Test
    void everyOptionalPartLintsClean(ControlPlane plane, @TempDir Path dir) throws IOException {
        Path values = Files.writeString(dir.resolve("everything.yaml"), EVERYTHING_ON);
        assertClean(
                plane.helm("lint", "--strict", "--kube-version", Helm.KUBE_VERSION, chart(), "-f", values.toString()));
    }

    @Test
    void lintCatchesABadValue(ControlPlane plane) {
        CommandResult result = plane.helm(
                "lint", "--strict", "--kube-version", Helm.KUBE_VERSION, chart(), "--set", "agent.network=x");
        assertThat(result.assertFailure().output()).contains("at '/agent/network'");
    }

    private static void assertClean(CommandResult result) {
        assertThat(result.assertSuccess().stdout())
                .contains("1 chart(s) linted, 0 chart(s) failed")
                .doesNotContain("[WARNING]")
                .doesNotContain("[ERROR]");
    }

    private static String chart() {
        return ChartFiles.chart().toString();
    }
}
