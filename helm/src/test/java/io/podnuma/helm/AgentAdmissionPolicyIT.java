package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.AgentTokens;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart's ValidatingAdmissionPolicy on the real API server: two agent pods bound to two kwok nodes, each with a
 * ServiceAccount token bound to its pod (the TokenRequest API, as the kubelet gets the projected token). Agent A may
 * write its own node's NumaNodeState and NodeResourceTopology and nothing of node B's; the admin is not matched.
 */
@ExtendWith(ControlPlaneExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentAdmissionPolicyIT {

    static final String RELEASE = "vap";
    static final String NAMESPACE = "podnuma-vap-it";
    static final String AGENT_SA = "vap-podnuma-agent";
    static final String POLICY = "ValidatingAdmissionPolicy '" + AGENT_SA + ".podnuma.io'";

    static final ResourceDefinitionContext NNS = context("podnuma.io", "v1alpha1", "numanodestates");
    static final ResourceDefinitionContext NRT = context("topology.node.k8s.io", "v1alpha2", "noderesourcetopologies");

    private ControlPlane plane;
    private String nodeA;
    private String nodeB;

    @BeforeAll
    void install(ControlPlane plane) {
        this.plane = plane;
        List<String> nodes = plane.ensureNodes(2);
        nodeA = nodes.get(0);
        nodeB = nodes.get(1);
        plane.installCrds(GeneratedCrds.nodeResourceTopologies());
        ChartFiles.install(plane, RELEASE, NAMESPACE, "operator.replicas=0,nodeResourceTopology.enabled=true", "120s");
        plane.client().resource(agentPod("agent-a", nodeA)).create();
        plane.client().resource(agentPod("agent-b", nodeB)).create();
    }

    @AfterAll
    void uninstall() {
        plane.helm("uninstall", RELEASE, "--namespace", NAMESPACE, "--wait").assertSuccess();
        for (String node : List.of(nodeA, nodeB)) {
            plane.client().genericKubernetesResources(NNS).withName(node).delete();
            plane.client().genericKubernetesResources(NRT).withName(node).delete();
        }
        plane.client().namespaces().withName(NAMESPACE).delete();
    }

    @Test
    void anAgentWritesOnlyItsOwnNodesObjects() {
        try (KubernetesClient agentA = clientWithToken(boundToken("agent-a"));
                KubernetesClient agentB = clientWithToken(boundToken("agent-b"))) {
            assertThat(extra(agentA)).containsEntry("authentication.kubernetes.io/node-name", List.of(nodeA));
            awaitPolicyActive(agentA);

            // Its own NumaNodeState: create, status patch, delete.
            agentA.genericKubernetesResources(NNS).resource(nodeState(nodeA)).create();
            patchStatus(agentA, NNS, nodeA);
            String hash = plane.client()
                    .genericKubernetesResources(NNS)
                    .withName(nodeA)
                    .get()
                    .get("status", "configHash");
            assertThat(hash).isEqualTo("written-by-its-agent");

            // Node B's: nothing.
            assertThatThrownBy(() -> agentA.genericKubernetesResources(NNS)
                            .resource(nodeState(nodeB))
                            .create())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining(POLICY)
                    .hasMessageContaining(denied(nodeA, "NumaNodeState", nodeB));
            agentB.genericKubernetesResources(NNS).resource(nodeState(nodeB)).create();
            assertThatThrownBy(() -> patchStatus(agentA, NNS, nodeB))
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining(denied(nodeA, "NumaNodeState", nodeB));
            assertThatThrownBy(() -> agentA.genericKubernetesResources(NNS)
                            .withName(nodeB)
                            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"))
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining(denied(nodeA, "NumaNodeState", nodeB));
            assertThatThrownBy(() -> agentA.genericKubernetesResources(NNS)
                            .withName(nodeB)
                            .delete())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining(denied(nodeA, "NumaNodeState", nodeB));
            assertThat(plane.client()
                            .genericKubernetesResources(NNS)
                            .withName(nodeB)
                            .get())
                    .isNotNull();

            assertThat(agentA.genericKubernetesResources(NNS).withName(nodeA).delete())
                    .isNotEmpty();
        }
    }

    @Test
    void nodeResourceTopologyIsCoveredToo() {
        try (KubernetesClient agentA = clientWithToken(boundToken("agent-a"))) {
            awaitPolicyActive(agentA);
            agentA.genericKubernetesResources(NRT).resource(topology(nodeA)).create();
            assertThatThrownBy(() -> agentA.genericKubernetesResources(NRT)
                            .resource(topology(nodeB))
                            .create())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining(denied(nodeA, "NodeResourceTopology", nodeB));
            assertThat(agentA.genericKubernetesResources(NRT).withName(nodeA).delete())
                    .isNotEmpty();
        }
    }

    @Test
    void credentialsWithoutANodeWriteNothing() {
        String unbound = AgentTokens.unboundToken(plane, NAMESPACE, AGENT_SA);
        try (KubernetesClient agent = clientWithToken(unbound)) {
            assertThat(extra(agent)).doesNotContainKey("authentication.kubernetes.io/node-name");
            assertThatThrownBy(() -> agent.genericKubernetesResources(NNS)
                            .resource(nodeState(nodeA))
                            .create())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("the podnuma agent's credentials name no node");
        }
    }

    @Test
    void otherIdentitiesAreNotMatched() {
        // The admin writes any node's object (the operator and users are not the agent).
        String probe = "admin-probe";
        plane.client()
                .genericKubernetesResources(NNS)
                .resource(nodeState(probe))
                .create();
        patchStatus(plane.client(), NNS, probe);
        assertThat(plane.client()
                        .genericKubernetesResources(NNS)
                        .withName(probe)
                        .delete())
                .isNotEmpty();
    }

    /** Policies reach the admission chain through informers: probe until a foreign name is denied. */
    private void awaitPolicyActive(KubernetesClient agent) {
        AtomicInteger n = new AtomicInteger();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    String name = "probe-" + n.incrementAndGet();
                    try {
                        agent.genericKubernetesResources(NNS)
                                .resource(nodeState(name))
                                .create();
                    } catch (KubernetesClientException e) {
                        assertThat(e.getMessage()).contains(denied(nodeA, "NumaNodeState", name));
                        return;
                    }
                    plane.client()
                            .genericKubernetesResources(NNS)
                            .withName(name)
                            .delete();
                    throw new AssertionError("the admission policy does not deny " + name + " yet");
                });
    }

    private static String denied(String own, String kind, String other) {
        return "the podnuma agent on node " + own + " may write only the " + kind + " named " + own + ", not " + other;
    }

    private String boundToken(String pod) {
        return AgentTokens.boundToken(plane, NAMESPACE, AGENT_SA, pod);
    }

    private KubernetesClient clientWithToken(String token) {
        return AgentTokens.clientWithToken(plane, token);
    }

    /** What the API server made of the client's credentials: the user's extra (SelfSubjectReview). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> extra(KubernetesClient client) {
        GenericKubernetesResource review = client.genericKubernetesResources(
                        context("authentication.k8s.io", "v1", "selfsubjectreviews"))
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("authentication.k8s.io/v1")
                        .withKind("SelfSubjectReview")
                        .withNewMetadata()
                        .endMetadata()
                        .build())
                .create();
        Object extra = review.get("status", "userInfo", "extra");
        return extra == null ? Map.of() : (Map<String, Object>) extra;
    }

    private static void patchStatus(KubernetesClient client, ResourceDefinitionContext type, String name) {
        client.genericKubernetesResources(type)
                .withName(name)
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"configHash\":\"written-by-its-agent\"}}");
    }

    private static Pod agentPod(String name, String node) {
        return AgentTokens.agentPod(name, NAMESPACE, AGENT_SA, node);
    }

    private static GenericKubernetesResource nodeState(String node) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("podnuma.io/v1alpha1")
                .withKind("NumaNodeState")
                .withNewMetadata()
                .withName(node)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("nodeName", node)))
                .build();
    }

    private static GenericKubernetesResource topology(String node) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("topology.node.k8s.io/v1alpha2")
                .withKind("NodeResourceTopology")
                .withNewMetadata()
                .withName(node)
                .endMetadata()
                .withAdditionalProperties(Map.of(
                        "topologyPolicies",
                        List.of("None"),
                        "zones",
                        List.of(Map.of("name", "node-0", "type", "Node"))))
                .build();
    }

    private static ResourceDefinitionContext context(String group, String version, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withPlural(plural)
                .withNamespaced(false)
                .build();
    }
}
