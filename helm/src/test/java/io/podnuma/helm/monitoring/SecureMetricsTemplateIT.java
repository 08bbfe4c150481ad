package io.podnuma.helm.monitoring;

import static io.podnuma.helm.monitoring.Monitors.AGENT;
import static io.podnuma.helm.monitoring.Monitors.NAMESPACE;
import static io.podnuma.helm.monitoring.Monitors.OPERATOR;
import static io.podnuma.helm.monitoring.Monitors.RELEASE_PREFIX;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.helm.Helm;
import io.podnuma.helm.Rendered;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code metrics.secure} through the real {@code helm template}: off, nothing of it (plain settings, no review rules,
 * no reader role); on, the operator and agents are told https, both ServiceAccounts may create TokenReviews and
 * SubjectAccessReviews, the metrics-reader ClusterRole is bound to the scraper whose token the monitors send, and the
 * monitors scrape https, verifying a certificate Secret's CA or (self-signed) nothing.
 */
@ExtendWith(ControlPlaneExtension.class)
class SecureMetricsTemplateIT {

    static final String SCRAPER = RELEASE_PREFIX + "-metrics-scraper";
    static final String READER = RELEASE_PREFIX + "-metrics-reader";
    static final String BOTH_MONITORS =
            "metrics.serviceMonitor.enabled=true,metrics.podMonitor.enabled=true,metrics.secure.enabled=true";

    private static ControlPlane plane;

    @BeforeAll
    static void plane(ControlPlane p) {
        plane = p;
    }

    @Test
    void offByDefault() {
        Rendered r = Helm.render(plane, "--set", "metrics.serviceMonitor.enabled=true,metrics.podMonitor.enabled=true");
        JsonNode settings = Monitors.settings(r);
        assertThat(settings.path("metricsSecurity").asText()).isEqualTo("http");
        assertThat(settings.path("agentMetricsSecurity").asText()).isEqualTo("http");
        assertThat(settings.has("agentMetricsScrapeTokenSecret")).isFalse();
        assertThat(r.find(ClusterRole.class, READER)).isEmpty();
        assertThat(r.find(ServiceAccount.class, SCRAPER)).isEmpty();
        assertThat(r.get(io.fabric8.kubernetes.api.model.Service.class, OPERATOR + "-metrics")
                        .getSpec()
                        .getPorts()
                        .getFirst()
                        .getAppProtocol())
                .isNull();
        assertThat(reviewRules(r.get(ClusterRole.class, OPERATOR))).isEmpty();
        assertThat(reviewRules(r.get(ClusterRole.class, AGENT))).isEmpty();
        for (String kind : List.of("ServiceMonitor", "PodMonitor")) {
            JsonNode endpoint = endpoint(Monitors.one(r, kind));
            assertThat(endpoint.has("scheme")).as(kind).isFalse();
            assertThat(endpoint.has("authorization")).as(kind).isFalse();
        }
    }

    @Test
    void selfSignedHttpsWithTheScrapersTokenAndTheReviewRules() {
        Rendered r = Helm.render(plane, "--set", BOTH_MONITORS, "--set", "metrics.secure.authCacheTtl=30s");
        JsonNode settings = Monitors.settings(r);
        assertThat(settings.path("metricsSecurity").asText()).isEqualTo("https");
        assertThat(settings.path("agentMetricsSecurity").asText()).isEqualTo("https");
        assertThat(settings.path("metricsAuthCacheTtl").asText()).isEqualTo("30s");
        assertThat(settings.path("agentMetricsAuthCacheTtl").asText()).isEqualTo("30s");
        assertThat(settings.path("agentMetricsScrapeTokenSecret").asText()).isEqualTo(SCRAPER);
        assertThat(settings.has("metricsCertFile")).isFalse();
        assertThat(settings.has("agentMetricsCertSecret")).isFalse();

        for (String role : List.of(OPERATOR, AGENT)) {
            assertThat(reviewRules(r.get(ClusterRole.class, role)))
                    .as(role)
                    .extracting(rule -> rule.getApiGroups().getFirst() + "/"
                            + rule.getResources().getFirst() + " " + rule.getVerbs())
                    .containsExactly(
                            "authentication.k8s.io/tokenreviews [create]",
                            "authorization.k8s.io/subjectaccessreviews [create]");
        }
        ClusterRole reader = r.get(ClusterRole.class, READER);
        assertThat(reader.getRules()).hasSize(1);
        assertThat(reader.getRules().getFirst().getNonResourceURLs()).containsExactly("/metrics");
        assertThat(reader.getRules().getFirst().getVerbs()).containsExactly("get");
        ClusterRoleBinding binding = r.get(ClusterRoleBinding.class, READER);
        assertThat(binding.getRoleRef().getName()).isEqualTo(READER);
        assertThat(binding.getSubjects())
                .extracting(s -> s.getKind() + " " + s.getNamespace() + "/" + s.getName())
                .containsExactly("ServiceAccount " + NAMESPACE + "/" + SCRAPER);
        Secret token = r.get(Secret.class, SCRAPER);
        assertThat(token.getType()).isEqualTo("kubernetes.io/service-account-token");
        assertThat(token.getMetadata().getAnnotations()).containsEntry("kubernetes.io/service-account.name", SCRAPER);

        for (String kind : List.of("ServiceMonitor", "PodMonitor")) {
            JsonNode endpoint = endpoint(Monitors.one(r, kind));
            assertThat(endpoint.path("scheme").asText()).as(kind).isEqualTo("https");
            assertThat(endpoint.at("/authorization/type").asText()).isEqualTo("Bearer");
            assertThat(endpoint.at("/authorization/credentials/name").asText()).isEqualTo(SCRAPER);
            assertThat(endpoint.at("/authorization/credentials/key").asText()).isEqualTo("token");
            assertThat(endpoint.at("/tlsConfig/insecureSkipVerify").asBoolean())
                    .as("a self-signed certificate cannot be verified")
                    .isTrue();
        }
        assertThat(r.get(Deployment.class, OPERATOR)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getVolumes())
                .noneMatch(v -> v.getName().equals("metrics-tls"));
    }

    @Test
    void aCertificateSecretIsMountedAndVerifiedAgainstItsCa() {
        Rendered r = Helm.render(
                plane,
                "--set",
                BOTH_MONITORS + ",metrics.secure.certSecret=podnuma-metrics-tls",
                "--set",
                "metrics.secure.readers[0].kind=ServiceAccount,metrics.secure.readers[0].name=prometheus,"
                        + "metrics.secure.readers[0].namespace=monitoring");
        JsonNode settings = Monitors.settings(r);
        assertThat(settings.path("metricsCertFile").asText()).isEqualTo("/run/podnuma/metrics-tls/tls.crt");
        assertThat(settings.path("metricsKeyFile").asText()).isEqualTo("/run/podnuma/metrics-tls/tls.key");
        assertThat(settings.path("agentMetricsCertSecret").asText()).isEqualTo("podnuma-metrics-tls");

        var pod = r.get(Deployment.class, OPERATOR).getSpec().getTemplate().getSpec();
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("metrics-tls"))
                .singleElement()
                .satisfies(v -> {
                    assertThat(v.getSecret().getSecretName()).isEqualTo("podnuma-metrics-tls");
                    // The key readable by the operator's group (the pod's fsGroup), not by every user.
                    assertThat(v.getSecret().getDefaultMode()).isEqualTo(0440);
                });
        assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(65532L);
        assertThat(pod.getContainers().getFirst().getVolumeMounts())
                .filteredOn(m -> m.getName().equals("metrics-tls"))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.getMountPath()).isEqualTo("/run/podnuma/metrics-tls");
                    assertThat(m.getReadOnly()).isTrue();
                });
        assertThat(pod.getContainers()
                        .getFirst()
                        .getStartupProbe()
                        .getHttpGet()
                        .getPort()
                        .getStrVal())
                .as("the probes stay on the plain health port")
                .isEqualTo("health");

        JsonNode operatorMonitor = endpoint(Monitors.one(r, "ServiceMonitor"));
        assertThat(operatorMonitor.at("/tlsConfig/ca/secret/name").asText()).isEqualTo("podnuma-metrics-tls");
        assertThat(operatorMonitor.at("/tlsConfig/ca/secret/key").asText()).isEqualTo("ca.crt");
        assertThat(operatorMonitor.at("/tlsConfig/serverName").asText())
                .isEqualTo(OPERATOR + "-metrics." + NAMESPACE + ".svc");
        assertThat(operatorMonitor.at("/tlsConfig").has("insecureSkipVerify")).isFalse();
        assertThat(endpoint(Monitors.one(r, "PodMonitor"))
                        .at("/tlsConfig/serverName")
                        .asText())
                .isEqualTo("podnuma-agent." + NAMESPACE + ".svc");
        assertThat(r.get(ClusterRoleBinding.class, READER).getSubjects())
                .extracting(s -> s.getNamespace() + "/" + s.getName())
                .containsExactly(NAMESPACE + "/" + SCRAPER, "monitoring/prometheus");
    }

    private static List<PolicyRule> reviewRules(ClusterRole role) {
        return role.getRules().stream()
                .filter(rule -> rule.getResources() != null
                        && (rule.getResources().contains("tokenreviews")
                                || rule.getResources().contains("subjectaccessreviews")))
                .toList();
    }

    private static JsonNode endpoint(JsonNode monitor) {
        JsonNode list = monitor.at("/spec/endpoints");
        return (list.isMissingNode() ? monitor.at("/spec/podMetricsEndpoints") : list).get(0);
    }
}
