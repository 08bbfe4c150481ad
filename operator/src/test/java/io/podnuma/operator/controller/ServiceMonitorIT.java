package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.KwokNodes;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.operator.render.AgentRollout;
import io.podnuma.operator.render.AgentServiceMonitor;
import io.podnuma.operator.render.AgentToleration;
import io.podnuma.operator.render.TaintEffect;
import io.podnuma.operator.render.TolerationOperator;
import io.podnuma.testkit.agent.SampleConfigs;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a cluster with {@code monitoring.coreos.com}, each policy also gets a ServiceMonitor (with the extra labels the
 * settings give it), deleted with it.
 */
@ExtendWith(ControlPlaneExtension.class)
class ServiceMonitorIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static OperatorFixture fixture;
    private static KubernetesClient admin;

    @BeforeAll
    static void start(ControlPlane plane) throws URISyntaxException {
        admin = plane.client();
        plane.installCrds(Path.of(ServiceMonitorIT.class
                .getResource("servicemonitors.monitoring.coreos.com.yaml")
                .toURI()));
        fixture = OperatorFixture.prepare(plane);
        fixture.start(admin.hasApiGroup("monitoring.coreos.com", false), ServiceMonitorIT::chartSettings);
    }

    @AfterAll
    static void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aPolicyGetsAServiceMonitorForItsAgentsAndLosesItWhenDeleted(ControlPlane plane) {
        plane.ensureNode("sm-0", Map.of("podnuma.it/group", "monitored"), KwokNodes.DEFAULT_ALLOCATABLE);
        admin.resource(new NumaResourcePolicy(
                        "monitored", SampleConfigs.selectingOnly("podnuma.it/group", "monitored", 0)))
                .create();

        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(serviceMonitor()).isNotNull().satisfies(sm -> {
                    assertThat(sm.getMetadata().getOwnerReferences())
                            .singleElement()
                            .satisfies(r -> assertThat(r.getName()).isEqualTo("monitored"));
                    assertThat(sm.getMetadata().getManagedFields())
                            .extracting(f -> f.getManager())
                            .containsOnly("podnuma-operator");
                    assertThat(sm.getAdditionalProperties().get("spec").toString())
                            .contains("port=metrics")
                            .contains(AgentRender.POLICY_LABEL + "=monitored");
                    assertThat(sm.getMetadata().getLabels())
                            .containsEntry("release", "kps")
                            .doesNotContainKey("example.com/team");
                }));
        DaemonSet ds = admin.apps()
                .daemonSets()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(AgentRender.objectName("monitored"))
                .get();
        assertThat(ds.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("example.com/team", "infra");
        assertThat(ds.getSpec().getTemplate().getSpec().getTolerations())
                .singleElement()
                .satisfies(t -> assertThat(t.getTolerationSeconds()).isEqualTo(300L));

        admin.resources(NumaResourcePolicy.class).withName("monitored").delete();
        await().atMost(TIMEOUT).until(() -> serviceMonitor() == null);
    }

    @Test
    void settingsThatNoLongerAskForAServiceMonitorDeleteThePolicysOne(ControlPlane plane) {
        plane.ensureNode("sm-1", Map.of("podnuma.it/group", "switched"), KwokNodes.DEFAULT_ALLOCATABLE);
        admin.resource(policy("switched")).create();
        await().atMost(TIMEOUT).until(() -> serviceMonitor("switched") != null);
        try {
            fixture.restart(true, rollout -> chartSettings(rollout).serviceMonitor(Optional.empty()));
            await().atMost(TIMEOUT).until(() -> serviceMonitor("switched") == null);
            assertThat(admin.apps()
                            .daemonSets()
                            .inNamespace(OperatorFixture.NAMESPACE)
                            .withName(AgentRender.objectName("switched"))
                            .get())
                    .as("only the monitor goes")
                    .isNotNull();
        } finally {
            fixture.restart(true, ServiceMonitorIT::chartSettings);
            admin.resources(NumaResourcePolicy.class).withName("switched").delete();
        }
    }

    /**
     * The chart's settings: kube-prometheus-stack's release label on the monitors, labels and tolerations of its own
     * on the pods; the API server must take them as rendered.
     */
    private static AgentRollout.Builder chartSettings(AgentRollout.Builder rollout) {
        return rollout.serviceMonitor(Optional.of(new AgentServiceMonitor(Map.of("release", "kps"))))
                .podLabels(Map.of("example.com/team", "infra"))
                .tolerations(List.of(new AgentToleration(
                        Optional.of("example.com/maintenance"),
                        TolerationOperator.EXISTS,
                        Optional.empty(),
                        Optional.of(TaintEffect.NO_EXECUTE),
                        Optional.of(300L))));
    }

    private static NumaResourcePolicy policy(String group) {
        return new NumaResourcePolicy(group, SampleConfigs.selectingOnly("podnuma.it/group", group, 0));
    }

    private static GenericKubernetesResource serviceMonitor() {
        return serviceMonitor("monitored");
    }

    private static GenericKubernetesResource serviceMonitor(String policy) {
        return admin.genericKubernetesResources("monitoring.coreos.com/v1", "ServiceMonitor")
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(AgentRender.objectName(policy))
                .get();
    }
}
