package io.podnuma.operator.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.TopologyManager;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerScope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The agents' {@code /metrics} over https as the operator renders it: the config keys, the certificate Secret's
 * mount, the Service port's appProtocol, the ServiceMonitor's scheme, token and TLS verification; the probes stay on
 * the plain health port; plain stays the default and renders what it rendered before.
 */
class AgentRenderSecureMetricsTest {

    private static final AgentRollout PLAIN = AgentRollout.defaults("podnuma.local/node-agent:1");
    private static final NumaResourcePolicySpec SPEC = new NumaResourcePolicySpec(
            new LabelSelectorBuilder().withMatchLabels(Map.of("pool", "a")).build(),
            0,
            new TopologyManager(TopologyManagerPolicy.SINGLE_NUMA_NODE, TopologyManagerScope.CONTAINER, null),
            new CpuManager(CpuManagerPolicy.STATIC, "0", null, null, null),
            null,
            null,
            AdmissionAction.WARN,
            false);

    private static AgentRollout secure(AgentSecureMetrics s) {
        return PLAIN.toBuilder().secureMetrics(Optional.of(s)).build();
    }

    private static NodeAgentConfig file(RenderedAgent r) {
        return NodeAgentConfigYaml.read(r.configMap().getData().get(AgentRender.CONFIG_KEY));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> endpoint(RenderedAgent r) {
        Map<String, Object> spec = (Map<String, Object>)
                r.serviceMonitor().orElseThrow().getAdditionalProperties().get("spec");
        return (Map<String, Object>) ((List<Object>) spec.get("endpoints")).getFirst();
    }

    @Test
    void plainByDefault() {
        RenderedAgent r = AgentRender.render("p", SPEC, PLAIN);
        NodeAgentConfig c = file(r);
        assertThat(c.metricsSecurity()).as("the agent's default, http").isNull();
        assertThat(c.metricsCertFile()).isNull();
        assertThat(r.service().getSpec().getPorts().getFirst().getAppProtocol()).isNull();
        assertThat(endpoint(r))
                .containsEntry("port", "metrics")
                .containsEntry("path", "/metrics")
                .doesNotContainKeys("scheme", "authorization", "bearerTokenFile", "tlsConfig");
        assertThat(r.daemonSet().getSpec().getTemplate().getSpec().getVolumes())
                .noneMatch(v -> v.getName().equals("metrics-tls"));
    }

    @Test
    void selfSignedAgentsAreScrapedWithHttpsAndPrometheussOwnTokenWithoutVerification() {
        RenderedAgent r = AgentRender.render("p", SPEC, secure(AgentSecureMetrics.selfSigned()));
        NodeAgentConfig c = file(r);
        assertThat(c.metricsSecurity()).isEqualTo("https");
        assertThat(c.metricsCertFile()).isNull();
        assertThat(c.metricsKeyFile()).isNull();
        assertThat(c.metricsAuthCacheTtl()).as("the agent's default").isNull();
        assertThat(r.service().getSpec().getPorts().getFirst().getAppProtocol()).isEqualTo("https");
        assertThat(endpoint(r))
                .containsEntry("scheme", "https")
                .containsEntry("bearerTokenFile", "/var/run/secrets/kubernetes.io/serviceaccount/token")
                .containsEntry("tlsConfig", Map.of("insecureSkipVerify", true))
                .doesNotContainKey("authorization");
        PodSpec pod = r.daemonSet().getSpec().getTemplate().getSpec();
        assertThat(pod.getVolumes()).noneMatch(v -> v.getName().equals("metrics-tls"));
        assertProbesStayPlain(pod.getContainers().getFirst());
        assertThat(r.configHash())
                .as("https is a new file: the agents roll")
                .isNotEqualTo(AgentRender.render("p", SPEC, PLAIN).configHash());
    }

    @Test
    void aCertificateSecretIsMountedReadOnlyAndTheMonitorVerifiesItsCaWithTheScrapersToken() {
        RenderedAgent r = AgentRender.render(
                "p",
                SPEC,
                secure(new AgentSecureMetrics(
                        Optional.of("podnuma-metrics-tls"),
                        Optional.of(Duration.ofSeconds(30)),
                        Optional.of("podnuma-metrics-scraper"))));
        NodeAgentConfig c = file(r);
        assertThat(c.metricsCertFile()).isEqualTo("/run/podnuma/metrics-tls/tls.crt");
        assertThat(c.metricsKeyFile()).isEqualTo("/run/podnuma/metrics-tls/tls.key");
        assertThat(c.metricsAuthCacheTtl()).isEqualTo("30s");

        PodSpec pod = r.daemonSet().getSpec().getTemplate().getSpec();
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("metrics-tls"))
                .singleElement()
                .satisfies(v -> {
                    assertThat(v.getSecret().getSecretName()).isEqualTo("podnuma-metrics-tls");
                    assertThat(v.getSecret().getDefaultMode()).isEqualTo(0400);
                });
        Container agent = pod.getContainers().getFirst();
        assertThat(agent.getVolumeMounts())
                .filteredOn(m -> m.getName().equals("metrics-tls"))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.getMountPath()).isEqualTo("/run/podnuma/metrics-tls");
                    assertThat(m.getReadOnly()).isTrue();
                });
        assertProbesStayPlain(agent);

        assertThat(endpoint(r))
                .containsEntry("scheme", "https")
                .containsEntry(
                        "authorization",
                        Map.of(
                                "type",
                                "Bearer",
                                "credentials",
                                Map.of("name", "podnuma-metrics-scraper", "key", "token")))
                .doesNotContainKey("bearerTokenFile")
                .containsEntry(
                        "tlsConfig",
                        Map.of(
                                "ca",
                                Map.of("secret", Map.of("name", "podnuma-metrics-tls", "key", "ca.crt")),
                                "serverName",
                                "podnuma-agent.podnuma-system.svc"));
        // The objects serialize as the API server will get them (the ServiceMonitor is a generic resource).
        assertThat(new KubernetesSerialization().asJson(r.serviceMonitor().orElseThrow()))
                .contains("\"scheme\":\"https\"");
    }

    @Test
    void aBadSecretNameOrTtlIsRefused() {
        assertThatThrownBy(() -> new AgentSecureMetrics(Optional.of("Bad_Name"), Optional.empty(), Optional.empty()))
                .hasMessage("certSecret 'Bad_Name': allowed a Secret name (DNS subdomain)");
        assertThatThrownBy(() ->
                        new AgentSecureMetrics(Optional.empty(), Optional.of(Duration.ofMinutes(11)), Optional.empty()))
                .hasMessage("cacheTtl 660000ms: allowed 0s..10m");
    }

    private static void assertProbesStayPlain(Container agent) {
        for (Probe p : List.of(agent.getStartupProbe(), agent.getReadinessProbe(), agent.getLivenessProbe())) {
            assertThat(p.getHttpGet().getScheme()).isEqualTo("HTTP");
            assertThat(p.getHttpGet().getPort().getIntVal()).isEqualTo(PLAIN.healthPort());
        }
    }
}
