package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code node-agent run} process plays the agent pod on a kwok node: it runs the configuration the operator
 * rendered into the ConfigMap (with this host's paths), reports its NumaNodeState, and the policy's status counts it.
 * At deletion the operator takes the label off, the agent (SIGTERM, as the kubelet would send when the DaemonSet
 * controller deletes its pod) sees its node left, restores and deletes its NumaNodeState, and only then is the policy
 * released.
 */
@ExtendWith(ControlPlaneExtension.class)
class PolicyAgentIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final String NODE = "agent-node-0";
    private static OperatorFixture fixture;
    private static KubernetesClient admin;
    private static KubeletLikeHost host;

    @BeforeAll
    static void start(ControlPlane plane) throws Exception {
        Optional<String> why = KubeletLikeHost.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "no kubelet-like cgroup host: " + why.orElse(""));
        host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS, "operatorit");
        Assumptions.assumeTrue(host.cpus().size() >= 2, "the policy reserves CPU 0 and needs another");
        admin = plane.client();
        fixture = OperatorFixture.prepare(plane);
        fixture.start();
        plane.ensureNode(
                NODE,
                Map.of("podnuma.it/group", "agents"),
                Map.of("cpu", Integer.toString(host.cpus().size()), "memory", "8Gi", "pods", "110"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
        if (host != null) {
            host.close();
        }
    }

    @Test
    void theAgentRunsTheRenderedConfigTheStatusCountsItAndDeletionWaitsForItsRestore(
            ControlPlane plane, @TempDir Path dir) throws Exception {
        NumaResourcePolicySpec policy =
                SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, false);
        admin.resource(new NumaResourcePolicy(
                        "agents",
                        new NumaResourcePolicySpec(
                                new LabelSelectorBuilder()
                                        .addToMatchLabels("podnuma.it/group", "agents")
                                        .build(),
                                0,
                                policy.topologyManager(),
                                policy.cpuManager(),
                                policy.memoryManager(),
                                policy.podLevelResources(),
                                policy.admission(),
                                policy.exportNodeResourceTopology())))
                .create();
        await().atMost(TIMEOUT).until(() -> configMap() != null && label().isPresent());

        // What the DaemonSet pod would read from its ConfigMap mount, with this host's places instead of the pod's.
        NodeAgentConfig rendered =
                NodeAgentConfigYaml.read(configMap().getData().get(AgentRender.CONFIG_KEY));
        NodeAgentConfig onThisHost = rendered.toBuilder()
                .nodeName(NODE)
                .sysfsRoot("/sys")
                .cgroupRoot("/sys/fs/cgroup")
                .kubeletStateDir(null)
                .kubeletConfigFile(null)
                .kubeletCgroupRoot(host.kubeletCgroupRoot())
                .reconcilePeriod("2s")
                .statusMinInterval("200ms")
                .build();
        try (AgentProcess agent = AgentProcess.prepare(dir.resolve("agent"), plane.kubeconfig())) {
            agent.configure(onThisHost);
            agent.start();
            agent.awaitReady(Duration.ofSeconds(60));

            await().atMost(TIMEOUT).untilAsserted(() -> {
                NumaResourcePolicy p = admin.resources(NumaResourcePolicy.class)
                        .withName("agents")
                        .get();
                assertThat(p.getStatus()).isNotNull();
                assertThat(p.getStatus().nodesMatched()).isEqualTo(1);
                assertThat(p.getStatus().nodesUpdated())
                        .as("the agent reports the hash of the rendered policy")
                        .isEqualTo(1);
            });
            assertThat(plane.kubectl("describe", "nrp", "agents")
                            .assertSuccess()
                            .stdout())
                    .containsPattern("Nodes Updated:\\s+1\\n");

            admin.resources(NumaResourcePolicy.class).withName("agents").delete();
            await().atMost(TIMEOUT).until(() -> label().isEmpty());
            assertThat(admin.resources(NumaResourcePolicy.class)
                            .withName("agents")
                            .get())
                    .as("held while the agent has not restored")
                    .isNotNull();

            agent.terminate(Duration.ofSeconds(30));
            await().atMost(TIMEOUT).untilAsserted(() -> {
                assertThat(admin.resources(NumaNodeState.class).withName(NODE).get())
                        .as("the agent deleted its state on leaving")
                        .isNull();
                assertThat(admin.resources(NumaResourcePolicy.class)
                                .withName("agents")
                                .get())
                        .isNull();
            });
            assertThat(agent.lastLog()).contains("left podnuma");
        }
    }

    private static ConfigMap configMap() {
        return admin.configMaps()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(AgentRender.objectName("agents"))
                .get();
    }

    private static Optional<String> label() {
        return Optional.ofNullable(
                admin.nodes().withName(NODE).get().getMetadata().getLabels().get(AgentRender.POLICY_LABEL));
    }
}
