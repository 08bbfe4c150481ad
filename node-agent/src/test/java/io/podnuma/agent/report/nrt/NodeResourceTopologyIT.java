package io.podnuma.agent.report.nrt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.report.CoalescingPublisher;
import io.podnuma.agent.report.NodeStateWriter;
import io.podnuma.agent.report.WriteOutcome;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** The NodeResourceTopology export against the real kube-apiserver, with and without the CRD. */
@ExtendWith(ControlPlaneExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeResourceTopologyIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path crd() {
        try {
            return Path.of(NodeResourceTopologyIT.class
                    .getResource("noderesourcetopologies.topology.node.k8s.io.yaml")
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void installCrd(ControlPlane cp) {
        assertThat(cp.installCrds(crd())).containsExactly(NrtApi.CRD_NAME);
    }

    /** A bare Node object (no kubelet needed): the NRT's owner. */
    private static String newNode(ControlPlane cp, String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        cp.client()
                .nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
        return name;
    }

    private static NodeResourceTopology rendered(ControlPlane cp, String node, NodeState state) {
        String uid = cp.client().nodes().withName(node).get().getMetadata().getUid();
        return NodeResourceTopologyRenderer.render(new NrtReport(
                node, Optional.of(uid), NrtFixtures.ALLOCATOR, state, new SharedPoolRequests(1500, 2L << 30)));
    }

    private static JsonNode readBack(ControlPlane cp, String node) throws Exception {
        String out = cp.kubectl("get", "noderesourcetopologies", node, "-o", "json", "--show-managed-fields")
                .assertSuccess()
                .stdout();
        return JSON.readTree(out);
    }

    private static GenericKubernetesResource stored(ControlPlane cp, String node) {
        return cp.client()
                .genericKubernetesResources(NrtApi.CONTEXT)
                .withName(node)
                .get();
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.path(field).asText()));
        return out;
    }

    @Test
    @Order(1)
    void withoutTheCrdOneClearErrorThenSilenceWithoutRequestsUntilTheRecheck(ControlPlane cp) throws Exception {
        cp.kubectl("delete", "crd", NrtApi.CRD_NAME, "--ignore-not-found", "--wait=true", "--timeout=60s")
                .assertSuccess();
        String node = newNode(cp, "nrt-nocrd");
        NodeState state =
                NrtFixtures.admit(NrtFixtures.ALLOCATOR, NrtFixtures.ALLOCATOR.initialState(), NrtFixtures.bubblePod());
        NodeResourceTopology nrt = rendered(cp, node, state);

        // Through the publisher: a burst of publications costs one failure, kept, and nothing more.
        NodeResourceTopologyWriter viaPublisher = new NodeResourceTopologyWriter(cp.client(), node);
        try (CoalescingPublisher<NodeResourceTopology> publisher =
                new CoalescingPublisher<>("noderesourcetopology", viaPublisher::write, Duration.ofMillis(100))) {
            for (int i = 0; i < 20; i++) {
                publisher.publish(rendered(cp, node, i % 2 == 0 ? state : NrtFixtures.ALLOCATOR.initialState()));
                Thread.sleep(15);
            }
            // Idle counts a retry as work: a failed hand-over is kept and scheduled again before its pass ends, so a
            // retry that failed again would keep the publisher from idle, or show as a second failure below.
            assertThat(publisher.awaitIdle(Duration.ofSeconds(30))).isTrue();
            assertThat(publisher.failures()).isEqualTo(1);
            assertThat(publisher.lastFailure()).get().isInstanceOf(NrtCrdMissingException.class);
            assertThat(publisher.writes()).isZero();
            assertThat(publisher.skipped()).isPositive();
            assertThat(viaPublisher.crdMissing()).isTrue();
        }

        // The writer alone, on a clock the test moves.
        AtomicLong now = new AtomicLong();
        NodeResourceTopologyWriter writer =
                new NodeResourceTopologyWriter(cp.client(), node, Duration.ofMinutes(5), now::get);
        assertThatThrownBy(() -> writer.write(nrt))
                .isInstanceOf(NrtCrdMissingException.class)
                .hasMessageStartingWith("NodeResourceTopology " + node + " not written: the API server does not serve"
                        + " noderesourcetopologies.topology.node.k8s.io/v1alpha2 (CRD"
                        + " noderesourcetopologies.topology.node.k8s.io is not installed)")
                .hasMessageContaining("at most every 5 min");
        assertThat(writer.write(nrt)).isEqualTo(WriteOutcome.SKIPPED);

        // Installed meanwhile: still skipped before the recheck, which proves no request is made.
        installCrd(cp);
        now.addAndGet(Duration.ofMinutes(4).toNanos());
        assertThat(writer.write(nrt)).isEqualTo(WriteOutcome.SKIPPED);
        assertThat(stored(cp, node)).isNull();

        now.addAndGet(Duration.ofMinutes(1).toNanos());
        assertThat(writer.write(nrt)).isEqualTo(WriteOutcome.WRITTEN);
        assertThat(writer.crdMissing()).isFalse();
        assertThat(stored(cp, node)).isNotNull();

        cp.client().genericKubernetesResources(NrtApi.CONTEXT).withName(node).delete();
        cp.client().nodes().withName(node).delete();
    }

    @Test
    @Order(2)
    void publishesReadsBackSkipsTheSameStateAndWritesAChangeOnce(ControlPlane cp) throws Exception {
        installCrd(cp);
        String node = newNode(cp, "nrt-publish");
        String nodeUid = cp.client().nodes().withName(node).get().getMetadata().getUid();
        NodeState one =
                NrtFixtures.admit(NrtFixtures.ALLOCATOR, NrtFixtures.ALLOCATOR.initialState(), NrtFixtures.bubblePod());
        NodeState two = NrtFixtures.admit(NrtFixtures.ALLOCATOR, one, NrtFixtures.plainPod());
        NodeResourceTopologyWriter writer = new NodeResourceTopologyWriter(cp.client(), node);

        try (CoalescingPublisher<NodeResourceTopology> publisher =
                new CoalescingPublisher<>("noderesourcetopology", writer::write, Duration.ofMillis(200))) {
            NodeResourceTopology first = rendered(cp, node, one);
            publisher.publish(first);
            assertThat(publisher.awaitIdle(Duration.ofSeconds(30))).isTrue();
            assertThat(publisher.failures())
                    .as("failures, last: %s", publisher.lastFailure())
                    .isZero();
            assertThat(publisher.writes()).isEqualTo(1);

            JsonNode back = readBack(cp, node);
            assertThat(back.path("apiVersion").asText()).isEqualTo("topology.node.k8s.io/v1alpha2");
            assertThat(back.path("kind").asText()).isEqualTo("NodeResourceTopology");
            assertThat(back.at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(nodeUid);
            assertThat(back.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("Node");
            assertThat(texts(back.at("/metadata/managedFields"), "manager"))
                    .containsExactly(NodeStateWriter.FIELD_MANAGER);
            assertThat(texts(back.path("topologyPolicies"), "")).hasSize(1);
            assertThat(back.path("topologyPolicies").get(0).asText()).isEqualTo("SingleNUMANodePodLevel");
            assertThat(texts(back.path("attributes"), "value")).containsExactly("single-numa-node", "pod");
            JsonNode zones = back.path("zones");
            assertThat(texts(zones, "name")).containsExactly("node-0", "node-1", "node-2", "node-3");
            assertThat(texts(zones, "type")).containsOnly("Node");
            assertThat(texts(zones.get(1).path("costs"), "name"))
                    .containsExactly("node-0", "node-1", "node-2", "node-3");
            List<Long> costs = new ArrayList<>();
            zones.get(1).path("costs").forEach(c -> costs.add(c.path("value").asLong()));
            assertThat(costs).containsExactly(11L, 10L, 21L, 21L);
            for (int i = 0; i < 4; i++) {
                JsonNode resources = zones.get(i).path("resources");
                assertThat(texts(resources, "name")).containsExactly("cpu", "hugepages-1Gi", "hugepages-2Mi", "memory");
                for (int r = 0; r < resources.size(); r++) {
                    NodeResourceTopology.ResourceInfo expected =
                            first.zones().get(i).resources().get(r);
                    JsonNode actual = resources.get(r);
                    assertThat(new NodeResourceTopology.ResourceInfo(
                                    actual.path("name").asText(),
                                    actual.path("capacity").asText(),
                                    actual.path("allocatable").asText(),
                                    actual.path("available").asText()))
                            .as("zone node-%d", i)
                            .isEqualTo(expected);
                }
            }
            // The bubble's 8 CPUs and the 1.5 shared CPUs are gone from the zones' available CPUs.
            long availableMillis = 0;
            for (JsonNode zone : zones) {
                availableMillis += io.podnuma.agent.engine.pod.CpuQuantity.parseMillis(
                        "cpu", zone.path("resources").get(0).path("available").asText());
            }
            assertThat(availableMillis).isEqualTo(94_000 - 8_000 - 1_500);
            String version = back.at("/metadata/resourceVersion").asText();

            // The same state rendered again: nothing is sent.
            publisher.publish(rendered(cp, node, one));
            assertThat(publisher.awaitIdle(Duration.ofSeconds(30))).isTrue();
            assertThat(publisher.unchanged()).isEqualTo(1);
            assertThat(publisher.writes()).isEqualTo(1);
            assertThat(readBack(cp, node).at("/metadata/resourceVersion").asText())
                    .isEqualTo(version);

            // A second pod: written once, and the stored object moves.
            NodeResourceTopology second = rendered(cp, node, two);
            publisher.publish(second);
            publisher.publish(rendered(cp, node, two));
            assertThat(publisher.awaitIdle(Duration.ofSeconds(30))).isTrue();
            assertThat(publisher.writes()).isEqualTo(2);
            JsonNode changed = readBack(cp, node);
            assertThat(changed.at("/metadata/resourceVersion").asText()).isNotEqualTo(version);
            long after = 0;
            for (JsonNode zone : changed.path("zones")) {
                after += io.podnuma.agent.engine.pod.CpuQuantity.parseMillis(
                        "cpu", zone.path("resources").get(0).path("available").asText());
            }
            assertThat(after).isEqualTo(94_000 - 10_000 - 1_500);
            assertThat(publisher.failures()).isZero();
        }

        cp.client().genericKubernetesResources(NrtApi.CONTEXT).withName(node).delete();
        cp.client().nodes().withName(node).delete();
    }
}
