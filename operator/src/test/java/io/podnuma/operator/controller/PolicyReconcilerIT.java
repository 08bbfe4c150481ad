package io.podnuma.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.controlplane.KwokNodes;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.render.AgentRender;
import io.podnuma.testkit.agent.SampleConfigs;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator against a real API server, controller-manager, scheduler and kwok nodes, running under its own
 * ServiceAccount with the RBAC the chart ships. Each test has its own nodes (label {@code it-group}) and policies.
 */
@ExtendWith(ControlPlaneExtension.class)
class PolicyReconcilerIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final String GROUP = "podnuma.it/group";
    private static OperatorFixture fixture;
    private static KubernetesClient admin;

    @BeforeAll
    static void startOperator(ControlPlane plane) {
        admin = plane.client();
        fixture = OperatorFixture.prepare(plane);
        fixture.start();
    }

    @AfterAll
    static void stopOperator() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aPolicyLabelsExactlyItsNodesRunsItsAgentsThereAndAnUnchangedOneWritesNothing(ControlPlane plane) {
        nodes("sel", 3, i -> i < 2 ? "selected" : "other");
        createPolicy("alpha", "selected", 0);

        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(labelled("alpha")).containsExactly("sel-0", "sel-1"));
        assertThat(policyLabel("sel-2")).isEmpty();
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(agentPods("alpha"))
                        .extracting(p -> p.getSpec().getNodeName())
                        .containsExactlyInAnyOrder("sel-0", "sel-1"));
        await().atMost(TIMEOUT).untilAsserted(() -> {
            NumaResourcePolicy p = policy("alpha");
            assertThat(p.getStatus()).isNotNull();
            assertThat(p.getStatus().nodesMatched()).isEqualTo(2);
            assertThat(condition(p, "Progressing").getReason()).isEqualTo("RolloutComplete");
        });
        assertThat(reasons("alpha")).contains("NodesAssigned", "RolloutStarted", "RolloutComplete");
        DaemonSet ds = daemonSet("alpha");
        assertThat(ds.getSpec().getTemplate().getSpec().getNodeSelector())
                .containsEntry(AgentRender.POLICY_LABEL, "alpha");
        assertThat(ds.getMetadata().getManagedFields())
                .extracting(f -> f.getManager())
                .contains("podnuma-operator");

        // Converged: nothing the operator writes changes any more, across a restart (a full resync) too.
        await().atMost(TIMEOUT).until(() -> {
            Map<String, String> v = versions("alpha", "sel-0", "sel-1", "sel-2");
            Thread.sleep(3_000);
            return v.equals(versions("alpha", "sel-0", "sel-1", "sel-2"));
        });
        Map<String, String> before = versions("alpha", "sel-0", "sel-1", "sel-2");
        int eventsBefore = events("alpha").size();
        fixture.restart();
        // The restarted operator's first pass over alpha has ended, its writes included: whatever it changed shows now.
        await().atMost(TIMEOUT).until(() -> fixture.passes("alpha").all() >= 1);
        assertThat(versions("alpha", "sel-0", "sel-1", "sel-2")).isEqualTo(before);
        assertThat(events("alpha")).hasSize(eventsBefore);

        String described =
                plane.kubectl("describe", "nrp", "alpha").assertSuccess().stdout();
        assertThat(described)
                .contains("Conditions:")
                .contains("RolloutComplete")
                .containsPattern("Nodes Matched:\\s+2\\n")
                .containsPattern("Warning\\s+NodeDegraded")
                .contains("NodesAssigned")
                .contains("labelled 2 nodes podnuma.io/policy=alpha: sel-0, sel-1");
    }

    @Test
    void overlappingPoliciesGoByPriorityThenAgeAndDeletingTheWinnerHandsTheNodesOver() {
        nodes("ovl", 3, i -> "shared");
        createPolicy("ovl-old", "shared", 0);
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(labelled("ovl-old")).containsExactly("ovl-0", "ovl-1", "ovl-2"));
        // Same priority, younger: loses every node.
        createPolicy("ovl-young", "shared", 0);
        // Higher priority, youngest: wins them.
        createPolicy("ovl-high", "shared", 10);

        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(labelled("ovl-high")).containsExactly("ovl-0", "ovl-1", "ovl-2");
            Condition conflict = condition(policy("ovl-old"), "Conflict");
            assertThat(conflict.getStatus()).isEqualTo("True");
            assertThat(conflict.getMessage()).contains("ovl-0 (governed by ovl-high)");
            assertThat(condition(policy("ovl-young"), "Conflict").getStatus()).isEqualTo("True");
        });
        assertThat(reasons("ovl-old")).contains("NodeConflict");

        admin.resources(NumaResourcePolicy.class).withName("ovl-high").delete();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(labelled("ovl-old")).containsExactly("ovl-0", "ovl-1", "ovl-2");
            assertThat(admin.resources(NumaResourcePolicy.class)
                            .withName("ovl-high")
                            .get())
                    .isNull();
            assertThat(condition(policy("ovl-young"), "Conflict").getMessage()).contains("governed by ovl-old");
        });
    }

    @Test
    void aNodeRelabelledIntoTheSelectorJoinsAndOneRelabelledOutLeaves() {
        nodes("mv", 2, i -> i == 0 ? "mover" : "elsewhere");
        createPolicy("mover", "mover", 0);
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(labelled("mover")).containsExactly("mv-0"));

        setGroup("mv-1", "mover");
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(labelled("mover")).containsExactly("mv-0", "mv-1"));
        setGroup("mv-0", "elsewhere");
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(labelled("mover")).containsExactly("mv-1");
            assertThat(policy("mover").getStatus().nodesMatched()).isEqualTo(1);
        });
    }

    @Test
    void anApiServerRestartIsSurvived(ControlPlane plane) {
        nodes("rs", 1, i -> "restart");
        plane.stopApiServer();
        try {
            Thread.sleep(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            plane.startApiServer();
        }
        createPolicy("after-restart", "restart", 0);
        await().atMost(TIMEOUT.multipliedBy(2))
                .untilAsserted(() -> assertThat(labelled("after-restart")).containsExactly("rs-0"));
    }

    @Test
    void aSpecChangeRollsTheDaemonSet() {
        nodes("roll", 1, i -> "roll");
        createPolicy("rolling", "roll", 0);
        await().atMost(TIMEOUT).until(() -> daemonSet("rolling") != null);
        String first = configHash(daemonSet("rolling"));

        boolean export = Boolean.TRUE.equals(policy("rolling").getSpec().exportNodeResourceTopology());
        // A merge patch of the spec alone: it does not race the operator's status writes as an edit would.
        admin.resources(NumaResourcePolicy.class)
                .withName("rolling")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"exportNodeResourceTopology\":" + !export + "}}");
        await().atMost(TIMEOUT)
                .untilAsserted(
                        () -> assertThat(configHash(daemonSet("rolling"))).isNotEqualTo(first));
        await().atMost(TIMEOUT)
                .untilAsserted(() -> assertThat(reasons("rolling"))
                        .filteredOn("RolloutStarted"::equals)
                        .hasSize(2));
    }

    @Test
    void deletionRemovesTheLabelsWaitsForTheAgentsThenDeletesTheDependents() {
        nodes("del", 1, i -> "del");
        createPolicy("gone", "del", 0);
        await().atMost(TIMEOUT)
                .until(() -> daemonSet("gone") != null && labelled("gone").size() == 1);
        reportingState("del-0", "gone");

        admin.resources(NumaResourcePolicy.class).withName("gone").delete();
        await().atMost(TIMEOUT).until(() -> policyLabel("del-0").isEmpty());
        // The first cleanup pass took the label off and, the node still reporting the policy, decided to wait; it has
        // ended, so a finalizer it dropped or an agent object it deleted shows now.
        await().atMost(TIMEOUT).until(() -> fixture.passes("gone").deleting() >= 1);
        assertThat(admin.resources(NumaResourcePolicy.class).withName("gone").get())
                .as("held by the finalizer while the agent restores")
                .isNotNull();
        assertThat(daemonSet("gone")).as("the agents stay until they restored").isNotNull();

        // The agent restored the node and deleted its state.
        admin.resources(NumaNodeState.class).withName("del-0").delete();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(admin.resources(NumaResourcePolicy.class)
                            .withName("gone")
                            .get())
                    .isNull();
            assertThat(daemonSet("gone")).isNull();
            assertThat(admin.configMaps()
                            .inNamespace(OperatorFixture.NAMESPACE)
                            .withName(AgentRender.objectName("gone"))
                            .get())
                    .isNull();
        });
        assertThat(reasons("gone")).contains("NodesReleased").doesNotContain("RestoreTimedOut");
    }

    @Test
    void deletionLetsThePolicyGoAfterTheTimeoutNamingTheNodes() {
        nodes("stuck", 1, i -> "stuck");
        createPolicy("stuck", "stuck", 0);
        await().atMost(TIMEOUT)
                .until(() -> daemonSet("stuck") != null && labelled("stuck").size() == 1);
        reportingState("stuck-0", "stuck");

        admin.resources(NumaResourcePolicy.class).withName("stuck").delete();
        await().atMost(OperatorFixture.RESTORE_TIMEOUT.plus(TIMEOUT))
                .until(() -> admin.resources(NumaResourcePolicy.class)
                                .withName("stuck")
                                .get()
                        == null);
        assertThat(events("stuck"))
                .filteredOn(e -> "RestoreTimedOut".equals(e.getReason()))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains("stuck-0");
                });
        admin.resources(NumaNodeState.class).withName("stuck-0").delete();
    }

    @Test
    void theOperatorsIdentityMayDoOnlyWhatItNeeds(ControlPlane plane) {
        String kubeconfig = plane.kubeconfigFor(OperatorFixture.NAMESPACE, OperatorFixture.SERVICE_ACCOUNT)
                .toString();
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("patch nodes", "yes");
        expected.put("delete nodes", "no");
        expected.put("list pods -A", "no");
        expected.put("get secrets -n " + OperatorFixture.NAMESPACE, "no");
        expected.put("patch daemonsets.apps -n " + OperatorFixture.NAMESPACE, "yes");
        expected.put("patch daemonsets.apps -n default", "no");
        expected.put("patch numaresourcepolicies.podnuma.io/status", "yes");
        expected.put("patch numanodestates.podnuma.io", "no");
        expected.put("create events -n default", "yes");
        // Events only where the policies' live, and only new ones.
        expected.put("patch events -n default", "no");
        expected.put("create events -n " + OperatorFixture.NAMESPACE, "no");
        expected.put("create events -n kube-system", "no");
        Map<String, String> actual = new LinkedHashMap<>();
        for (String question : expected.keySet()) {
            List<String> args = new java.util.ArrayList<>(List.of("--kubeconfig", kubeconfig, "auth", "can-i"));
            args.addAll(List.of(question.split(" ")));
            actual.put(
                    question,
                    plane.kubectl(args.toArray(String[]::new)).stdout().trim());
        }
        assertThat(actual).isEqualTo(expected);

        // The whole list: no pod, secret or workload other than the agents' DaemonSets, in any namespace.
        String list = plane.kubectl("--kubeconfig", kubeconfig, "auth", "can-i", "--list")
                .assertSuccess()
                .stdout();
        assertThat(list)
                .containsPattern("(?m)^numaresourcepolicies\\.podnuma\\.io\\s")
                .containsPattern("(?m)^nodes\\s+\\[\\]\\s+\\[\\]\\s+\\[get list watch patch\\]")
                .doesNotContainPattern("(?m)^pods[\\s.]")
                .doesNotContainPattern("(?m)^secrets[\\s.]")
                .doesNotContainPattern("(?m)^deployments[\\s.]")
                .doesNotContainPattern("(?m)^\\*");
    }

    // --- helpers

    private static void nodes(String prefix, int count, java.util.function.IntFunction<String> group) {
        for (int i = 0; i < count; i++) {
            fixture.plane.ensureNode(prefix + "-" + i, Map.of(GROUP, group.apply(i)), KwokNodes.DEFAULT_ALLOCATABLE);
        }
    }

    private static void setGroup(String node, String group) {
        admin.nodes()
                .withName(node)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"labels\":{\"" + GROUP + "\":\"" + group + "\"}}}");
    }

    private static void createPolicy(String name, String group, int priority) {
        admin.resource(new NumaResourcePolicy(name, SampleConfigs.selectingOnly(GROUP, group, priority)))
                .create();
    }

    private static void reportingState(String node, String policy) {
        NumaNodeState state = admin.resource(new NumaNodeState(node)).create();
        state.setStatus(new NumaNodeStateStatus(policy, "sha256:x", null, null, null, 0, List.of(), List.of(), null));
        admin.resource(state).updateStatus();
    }

    private static NumaResourcePolicy policy(String name) {
        return admin.resources(NumaResourcePolicy.class).withName(name).get();
    }

    private static Condition condition(NumaResourcePolicy p, String type) {
        assertThat(p.getStatus()).as("status of " + p.getMetadata().getName()).isNotNull();
        return p.getStatus().conditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> labelled(String policy) {
        return admin.nodes().withLabel(AgentRender.POLICY_LABEL, policy).list().getItems().stream()
                .map(n -> n.getMetadata().getName())
                .sorted()
                .toList();
    }

    private static Optional<String> policyLabel(String node) {
        Node n = admin.nodes().withName(node).get();
        return Optional.ofNullable(n.getMetadata().getLabels().get(AgentRender.POLICY_LABEL));
    }

    private static DaemonSet daemonSet(String policy) {
        return admin.apps()
                .daemonSets()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(AgentRender.objectName(policy))
                .get();
    }

    private static String configHash(DaemonSet ds) {
        return ds.getSpec().getTemplate().getMetadata().getAnnotations().get(AgentRender.CONFIG_HASH_ANNOTATION);
    }

    private static List<Pod> agentPods(String policy) {
        return admin
                .pods()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withLabels(AgentRender.selector(policy))
                .list()
                .getItems()
                .stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .toList();
    }

    private static List<Event> events(String policy) {
        return admin.v1()
                .events()
                .inNamespace("default")
                .withField("involvedObject.name", policy)
                .list()
                .getItems();
    }

    private static List<String> reasons(String policy) {
        return events(policy).stream().map(Event::getReason).toList();
    }

    /** The resourceVersions of the policy, its agent objects and the nodes. */
    private static Map<String, String> versions(String policy, String... nodes) {
        Map<String, String> out = new TreeMap<>();
        List<HasMetadata> objects = new java.util.ArrayList<>();
        objects.add(policy(policy));
        objects.add(daemonSet(policy));
        objects.add(admin.configMaps()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(AgentRender.objectName(policy))
                .get());
        objects.add(admin.services()
                .inNamespace(OperatorFixture.NAMESPACE)
                .withName(AgentRender.objectName(policy))
                .get());
        for (String n : nodes) {
            objects.add(admin.nodes().withName(n).get());
        }
        for (HasMetadata o : objects) {
            out.put(
                    o.getKind() + "/" + o.getMetadata().getName(),
                    o.getMetadata().getResourceVersion());
        }
        return out;
    }
}
