package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.Edits;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.agent.RenderedConfigs;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real {@code node-agent run} processes play the agent pods on two kwok nodes: each runs the configuration the
 * operator rendered into the ConfigMap (with this host's paths) on a kubelet-like cgroup host of its own, reports its
 * NumaNodeState, and the policy's status counts them. A spec change renders a new config: the status shows the
 * nodes that run it as each agent restarts with it (as the DaemonSet's rolling update would restart its pods). At
 * deletion the operator takes the labels off, each agent (SIGTERM, as the kubelet would send when the DaemonSet
 * controller deletes its pod) sees its node left, restores and deletes its NumaNodeState, and only then is the
 * policy released.
 */
@ExtendWith(ControlPlaneExtension.class)
class PolicyAgentIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final List<String> NODES = List.of("agent-node-0", "agent-node-1");
    private static final String POLICY = "agents";
    private static OperatorFixture fixture;
    private static KubernetesClient admin;
    private static final List<KubeletLikeHost> HOSTS = new ArrayList<>();

    @BeforeAll
    static void start(ControlPlane plane) throws Exception {
        Optional<String> why = KubeletLikeHost.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "no kubelet-like cgroup host: " + why.orElse(""));
        for (int i = 0; i < NODES.size(); i++) {
            HOSTS.add(KubeletLikeHost.create(CgroupDriverName.CGROUPFS, "operatorit" + i));
        }
        Assumptions.assumeTrue(HOSTS.getFirst().cpus().size() >= 2, "the policy reserves CPU 0 and needs another");
        admin = plane.client();
        fixture = OperatorFixture.prepare(plane);
        fixture.start();
        for (String node : NODES) {
            plane.ensureNode(
                    node,
                    Map.of("podnuma.it/group", "agents"),
                    Map.of("cpu", Integer.toString(HOSTS.getFirst().cpus().size()), "memory", "8Gi", "pods", "110"));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
        for (KubeletLikeHost host : HOSTS) {
            host.close();
        }
    }

    @Test
    void theAgentsRunTheRenderedConfigTheStatusFollowsASpecChangeAndDeletionWaitsForTheirRestore(
            ControlPlane plane, @TempDir Path dir) throws Exception {
        admin.resource(new NumaResourcePolicy(POLICY, spec(AdmissionAction.WARN)))
                .create();
        await().atMost(TIMEOUT)
                .until(() -> configMap() != null && NODES.stream().allMatch(n -> label(n).isPresent()));
        String firstConfig = configText();

        List<AgentProcess> agents = new ArrayList<>();
        try {
            for (int i = 0; i < NODES.size(); i++) {
                AgentProcess agent = AgentProcess.prepare(dir.resolve("agent-" + i), plane.kubeconfig());
                agents.add(agent);
                runRenderedConfig(agent, i);
            }
            awaitStatus(2, 2);
            assertThat(plane.kubectl("describe", "nrp", POLICY).assertSuccess().stdout())
                    .containsPattern("Nodes Matched:\\s+2\\n")
                    .containsPattern("Nodes Updated:\\s+2\\n");

            // A spec change: a new config file; the agents still run the old one until they restart with the new.
            Edits.retryingConflicts(() -> admin.resources(NumaResourcePolicy.class)
                    .withName(POLICY)
                    .edit(p -> {
                        p.setSpec(spec(AdmissionAction.EVICT));
                        return p;
                    }));
            await().atMost(TIMEOUT).until(() -> !configText().equals(firstConfig));
            awaitStatus(2, 0);
            agents.getFirst().terminate(Duration.ofSeconds(30));
            runRenderedConfig(agents.getFirst(), 0);
            awaitStatus(2, 1);
            agents.get(1).terminate(Duration.ofSeconds(30));
            runRenderedConfig(agents.get(1), 1);
            awaitStatus(2, 2);

            admin.resources(NumaResourcePolicy.class).withName(POLICY).delete();
            await().atMost(TIMEOUT).until(() -> NODES.stream().allMatch(n -> label(n).isEmpty()));
            assertThat(admin.resources(NumaResourcePolicy.class)
                            .withName(POLICY)
                            .get())
                    .as("held while the agents have not restored")
                    .isNotNull();

            agents.getFirst().terminate(Duration.ofSeconds(30));
            assertThat(admin.resources(NumaResourcePolicy.class)
                            .withName(POLICY)
                            .get())
                    .as("held while one agent has not restored")
                    .isNotNull();
            agents.get(1).terminate(Duration.ofSeconds(30));
            // How each agent stopped first: a "stays" decision and a failed delete leave the same NumaNodeState.
            for (AgentProcess agent : agents) {
                assertThat(agent.lastLog()).as("the agent's log").contains("left podnuma");
            }
            await().atMost(TIMEOUT).untilAsserted(() -> {
                for (int i = 0; i < NODES.size(); i++) {
                    assertThat(admin.resources(NumaNodeState.class)
                                    .withName(NODES.get(i))
                                    .get())
                            .as(
                                    "the agent of %s deleted its state on leaving; its log:%n%s",
                                    NODES.get(i), agents.get(i).logTail())
                            .isNull();
                }
                assertThat(admin.resources(NumaResourcePolicy.class)
                                .withName(POLICY)
                                .get())
                        .isNull();
            });
        } finally {
            for (AgentProcess agent : agents) {
                agent.close();
            }
        }
    }

    private static NumaResourcePolicySpec spec(AdmissionAction admission) {
        NumaResourcePolicySpec policy = SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), admission, false);
        return new NumaResourcePolicySpec(
                new LabelSelectorBuilder()
                        .addToMatchLabels("podnuma.it/group", "agents")
                        .build(),
                0,
                policy.topologyManager(),
                policy.cpuManager(),
                policy.memoryManager(),
                policy.podLevelResources(),
                policy.admission(),
                policy.exportNodeResourceTopology());
    }

    /** Starts {@code agent} on node {@code i} with what the DaemonSet pod would read from its ConfigMap mount now. */
    private static void runRenderedConfig(AgentProcess agent, int i) throws Exception {
        agent.configure(RenderedConfigs.onThisHost(
                NodeAgentConfigYaml.read(configText()),
                NODES.get(i),
                HOSTS.get(i).kubeletCgroupRoot()));
        agent.start();
        agent.awaitReady(Duration.ofSeconds(60));
    }

    private static void awaitStatus(int matched, int updated) {
        await().atMost(TIMEOUT).untilAsserted(() -> {
            NumaResourcePolicy p =
                    admin.resources(NumaResourcePolicy.class).withName(POLICY).get();
            assertThat(p.getStatus()).isNotNull();
            assertThat(p.getStatus().nodesMatched()).isEqualTo(matched);
            assertThat(p.getStatus().nodesUpdated())
                    .as("nodes whose agent reports the hash of the current rendered policy")
                    .isEqualTo(updated);
        });
    }

    private static String configText() {
        return configMap().getData().get(AgentRender.CONFIG_KEY);
    }

    private static ConfigMap configMap() {
        return admin.configMaps()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(AgentRender.objectName(POLICY))
                .get();
    }

    private static Optional<String> label(String node) {
        return Optional.ofNullable(
                admin.nodes().withName(node).get().getMetadata().getLabels().get(AgentRender.POLICY_LABEL));
    }
}
