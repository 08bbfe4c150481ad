package io.podnuma.agent.report.nrt;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.pod.CpuQuantity;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Attribute;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Cost;
import io.podnuma.agent.report.nrt.NodeResourceTopology.ResourceInfo;
import io.podnuma.agent.report.nrt.NodeResourceTopology.Zone;
import io.podnuma.agent.sysfs.FakeMachine;
import io.podnuma.agent.sysfs.Fixtures;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeResourceTopologyRendererTest {

    private static final NodeAllocator ALLOCATOR = NrtFixtures.ALLOCATOR;

    private static NodeResourceTopology render(NodeState state, SharedPoolRequests shared) {
        return NodeResourceTopologyRenderer.render(NrtFixtures.report(ALLOCATOR, state, shared));
    }

    private static ResourceInfo resource(NodeResourceTopology nrt, int node, String name) {
        return nrt.zones()
                .get(node)
                .resource(name)
                .orElseThrow(() -> new AssertionError("zone node-" + node + " has no " + name + ": "
                        + nrt.zones().get(node)));
    }

    private static int nodeOf(NodeState state, String podUid) {
        PodAssignment pod = state.pod(podUid).orElseThrow();
        return NrtFixtures.SNC2.numaNodesOf(pod.exclusiveCpus()).first();
    }

    @Test
    void anIdleNodeHasOneZonePerNumaNodeWithCostsCapacityAndReservationsSubtracted() {
        NodeResourceTopology nrt = render(ALLOCATOR.initialState(), SharedPoolRequests.NONE);

        assertThat(nrt.nodeName()).isEqualTo("worker-1");
        assertThat(nrt.nodeUid()).contains("6f1c2d3e-0000-4000-8000-000000000001");
        assertThat(nrt.topologyPolicies()).containsExactly("SingleNUMANodePodLevel");
        assertThat(nrt.attributes())
                .containsExactly(
                        new Attribute("topologyManagerPolicy", "single-numa-node"),
                        new Attribute("topologyManagerScope", "pod"));
        assertThat(nrt.zones()).extracting(Zone::name).containsExactly("node-0", "node-1", "node-2", "node-3");
        assertThat(nrt.zones()).extracting(Zone::type).containsOnly("Node");
        assertThat(nrt.zones().get(0).costs())
                .containsExactly(
                        new Cost("node-0", 10), new Cost("node-1", 11), new Cost("node-2", 21), new Cost("node-3", 21));
        assertThat(nrt.zones().get(3).costs())
                .containsExactly(
                        new Cost("node-0", 21), new Cost("node-1", 21), new Cost("node-2", 11), new Cost("node-3", 10));

        // Node 0: CPUs 0 and 48 reserved; 1 GiB reserved; 4.5 GiB of huge pages are not regular memory.
        assertThat(nrt.zones().get(0).resources())
                .containsExactly(
                        new ResourceInfo("cpu", "24", "22", "22"),
                        new ResourceInfo("hugepages-1Gi", "4Gi", "4Gi", "4Gi"),
                        new ResourceInfo("hugepages-2Mi", "512Mi", "512Mi", "512Mi"),
                        new ResourceInfo("memory", "96Gi", "92672Mi", "92672Mi"));
        for (int node = 1; node < 4; node++) {
            assertThat(nrt.zones().get(node).resources())
                    .as("node-%d", node)
                    .containsExactly(
                            new ResourceInfo("cpu", "24", "24", "24"),
                            new ResourceInfo("hugepages-1Gi", "4Gi", "4Gi", "4Gi"),
                            new ResourceInfo("hugepages-2Mi", "512Mi", "512Mi", "512Mi"),
                            new ResourceInfo("memory", "96Gi", "93696Mi", "93696Mi"));
        }
    }

    @Test
    void bubblesExclusiveContainersAndPinnedMemoryLowerAvailableOnTheirNodeOnly() {
        NodeState state = NrtFixtures.admit(ALLOCATOR, ALLOCATOR.initialState(), NrtFixtures.bubblePod());
        state = NrtFixtures.admit(ALLOCATOR, state, NrtFixtures.plainPod());
        int bubbleNode = nodeOf(state, "uid-bubble");
        int plainNode = nodeOf(state, "uid-plain");
        assertThat(state.pod("uid-bubble").orElseThrow().bubble().size()).isEqualTo(8);

        NodeResourceTopology nrt = render(state, SharedPoolRequests.NONE);

        for (int node = 0; node < 4; node++) {
            long allocatable = node == 0 ? 22 : 24;
            long held = (node == bubbleNode ? 8 : 0) + (node == plainNode ? 2 : 0);
            assertThat(resource(nrt, node, "cpu"))
                    .as("cpu of node-%d (bubble on %d, plain on %d)", node, bubbleNode, plainNode)
                    .isEqualTo(new ResourceInfo(
                            "cpu", "24", Long.toString(allocatable), Long.toString(allocatable - held)));

            long allocatableMi = node == 0 ? 92672 : 93696;
            long pinnedMi = (node == bubbleNode ? 4096 : 0) + (node == plainNode ? 1024 : 0);
            assertThat(resource(nrt, node, "memory").available())
                    .as("memory available on node-%d", node)
                    .isEqualTo((allocatableMi - pinnedMi) + "Mi");
            assertThat(resource(nrt, node, "memory").allocatable()).isEqualTo(allocatableMi + "Mi");
            assertThat(resource(nrt, node, "hugepages-2Mi").available())
                    .as("2 MiB pages available on node-%d", node)
                    .isEqualTo(node == bubbleNode ? "384Mi" : "512Mi");
            assertThat(resource(nrt, node, "hugepages-1Gi").available()).isEqualTo("4Gi");
        }

        // Removing the pods gives everything back.
        NodeState emptied = ALLOCATOR.remove(ALLOCATOR.remove(state, "uid-plain"), "uid-bubble");
        assertThat(render(emptied, SharedPoolRequests.NONE))
                .isEqualTo(render(ALLOCATOR.initialState(), SharedPoolRequests.NONE));
    }

    @Test
    void sharedPoolRequestsAreChargedInProportionToEachNodesFreeCpusAndAddUpExactly() {
        NodeResourceTopology nrt = render(ALLOCATOR.initialState(), new SharedPoolRequests(2500, 0));

        // Free CPUs 22 / 24 / 24 / 24 (94): shares 585.1 / 638.3 / 638.3 / 638.3 -> 585, then the one left-over
        // millicore to the largest remainder (node 1 wins the tie by id).
        assertThat(nrt.zones().stream().map(z -> z.resource("cpu").orElseThrow().available()))
                .containsExactly("21415m", "23361m", "23362m", "23362m");

        NodeState state = NrtFixtures.admit(ALLOCATOR, ALLOCATOR.initialState(), NrtFixtures.bubblePod());
        int bubbleNode = nodeOf(state, "uid-bubble");
        NodeResourceTopology withPod = render(state, new SharedPoolRequests(7000, 0));
        long totalAvailable = 0;
        for (int node = 0; node < 4; node++) {
            totalAvailable += millis(resource(withPod, node, "cpu").available());
        }
        assertThat(totalAvailable).isEqualTo((94 - 8) * 1000L - 7000);
        assertThat(millis(resource(withPod, bubbleNode, "cpu").available()))
                .as("the bubble's node keeps the least")
                .isLessThan(
                        millis(resource(withPod, bubbleNode == 1 ? 2 : 1, "cpu").available()));
    }

    @Test
    void unpinnedMemoryRequestsAreSharedAndNothingGoesBelowZero() {
        NodeResourceTopology some = render(ALLOCATOR.initialState(), new SharedPoolRequests(0, 4L << 30));
        long before = (92672L + 3 * 93696L) << 20;
        long after = 0;
        for (int node = 0; node < 4; node++) {
            after += bytes(resource(some, node, "memory").available());
        }
        assertThat(after).isEqualTo(before - (4L << 30));

        NodeResourceTopology flooded = render(ALLOCATOR.initialState(), new SharedPoolRequests(1_000_000, 1L << 50));
        for (int node = 0; node < 4; node++) {
            assertThat(resource(flooded, node, "cpu").available()).isEqualTo("0");
            assertThat(resource(flooded, node, "memory").available()).isEqualTo("0");
            assertThat(resource(flooded, node, "hugepages-2Mi").available())
                    .as("huge pages are never taken by unpinned requests")
                    .isEqualTo("512Mi");
        }
    }

    @Test
    void aMemoryOnlyNodeIsAZoneWithMemoryButNoCpu() {
        CpuTopology cxl = Fixtures.topology(FakeMachine.CXL);
        NodeAllocator allocator = NodeAllocator.create(cxl, NodeConfig.none());

        NodeResourceTopology nrt = NodeResourceTopologyRenderer.render(
                NrtFixtures.report(allocator, allocator.initialState(), SharedPoolRequests.NONE));

        assertThat(nrt.zones()).extracting(Zone::name).containsExactly("node-0", "node-1");
        assertThat(nrt.zones().get(1).resources())
                .containsExactly(new ResourceInfo("memory", "128Gi", "128Gi", "128Gi"));
        assertThat(nrt.zones().get(1).costs()).containsExactly(new Cost("node-0", 20), new Cost("node-1", 10));
        // No CPU policy: nothing reserved, everything shared.
        assertThat(nrt.zones().get(0).resource("cpu")).contains(new ResourceInfo("cpu", "16", "16", "16"));
        assertThat(nrt.topologyPolicies()).containsExactly("None");
        assertThat(nrt.attributes())
                .containsExactly(
                        new Attribute("topologyManagerPolicy", "none"),
                        new Attribute("topologyManagerScope", "container"));
    }

    @Test
    void costsAreLeftOutWhenTheMachineReportsNoDistances() {
        CpuTopology withDistances = NrtFixtures.SNC2;
        List<NumaNode> bare = withDistances.numaNodes().stream()
                .map(n -> new NumaNode(n.id(), n.cpus(), n.memoryBytes(), n.hugepages(), List.of()))
                .toList();
        CpuTopology noDistances = new CpuTopology(withDistances.cpus(), withDistances.offlineCpus(), bare);
        NodeAllocator allocator = NodeAllocator.create(noDistances, NrtFixtures.config(NodeConfig.CpuPolicy.STATIC));

        NodeResourceTopology nrt = NodeResourceTopologyRenderer.render(
                NrtFixtures.report(allocator, allocator.initialState(), SharedPoolRequests.NONE));

        assertThat(nrt.zones()).hasSize(4).allSatisfy(z -> assertThat(z.costs()).isEmpty());
        Map<String, Object> zone = zoneJson(nrt, 0);
        assertThat(zone).containsOnlyKeys("name", "type", "resources");
    }

    @Test
    void theSameStateRendersTheSameObjectAndTheSameJson() {
        NodeState state = NrtFixtures.admit(ALLOCATOR, ALLOCATOR.initialState(), NrtFixtures.bubblePod());
        SharedPoolRequests shared = new SharedPoolRequests(1500, 3L << 30);

        NodeResourceTopology a = render(state, shared);
        NodeResourceTopology b =
                render(NrtFixtures.admit(ALLOCATOR, ALLOCATOR.initialState(), NrtFixtures.bubblePod()), shared);

        assertThat(b).isEqualTo(a);
        assertThat(Serialization.asJson(NrtApi.toResource(b))).isEqualTo(Serialization.asJson(NrtApi.toResource(a)));
        assertThat(render(state, new SharedPoolRequests(1501, 3L << 30))).isNotEqualTo(a);
        for (Zone z : a.zones()) {
            assertThat(z.resources()).extracting(ResourceInfo::name).isSorted();
        }
    }

    @Test
    void theObjectHasTheApiShapeOwnerReferenceAndNoServerFields() {
        NodeResourceTopology nrt = render(ALLOCATOR.initialState(), SharedPoolRequests.NONE);

        var resource = NrtApi.toResource(nrt);

        assertThat(resource.getApiVersion()).isEqualTo("topology.node.k8s.io/v1alpha2");
        assertThat(resource.getKind()).isEqualTo("NodeResourceTopology");
        assertThat(resource.getMetadata().getName()).isEqualTo("worker-1");
        assertThat(resource.getMetadata().getNamespace()).isNull();
        assertThat(resource.getMetadata().getResourceVersion()).isNull();
        assertThat(resource.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getApiVersion()).isEqualTo("v1");
            assertThat(o.getKind()).isEqualTo("Node");
            assertThat(o.getName()).isEqualTo("worker-1");
            assertThat(o.getUid()).isEqualTo("6f1c2d3e-0000-4000-8000-000000000001");
        });
        assertThat(resource.getAdditionalProperties()).containsOnlyKeys("topologyPolicies", "zones", "attributes");
        assertThat(zoneJson(nrt, 0))
                .containsEntry("name", "node-0")
                .containsEntry("type", "Node")
                .containsOnlyKeys("name", "type", "costs", "resources");

        NodeResourceTopology unowned = new NodeResourceTopology(
                nrt.nodeName(), Optional.empty(), nrt.topologyPolicies(), nrt.zones(), nrt.attributes());
        assertThat(NrtApi.toResource(unowned).getMetadata().getOwnerReferences())
                .isEmpty();
    }

    @Test
    void deprecatedPolicyWordsFollowPolicyAndScope() {
        assertThat(NodeResourceTopologyRenderer.deprecatedPolicy(TopologyPolicyName.NONE, NodeConfig.TopologyScope.POD))
                .isEqualTo("None");
        assertThat(NodeResourceTopologyRenderer.deprecatedPolicy(
                        TopologyPolicyName.BEST_EFFORT, NodeConfig.TopologyScope.CONTAINER))
                .isEqualTo("BestEffortContainerLevel");
        assertThat(NodeResourceTopologyRenderer.deprecatedPolicy(
                        TopologyPolicyName.RESTRICTED, NodeConfig.TopologyScope.POD))
                .isEqualTo("RestrictedPodLevel");
        assertThat(NodeResourceTopologyRenderer.deprecatedPolicy(
                        TopologyPolicyName.SINGLE_NUMA_NODE, NodeConfig.TopologyScope.CONTAINER))
                .isEqualTo("SingleNUMANodeContainerLevel");
    }

    @Test
    void quantitiesAreCanonical() {
        assertThat(NodeResourceTopologyRenderer.cpu(0)).isEqualTo("0");
        assertThat(NodeResourceTopologyRenderer.cpu(24_000)).isEqualTo("24");
        assertThat(NodeResourceTopologyRenderer.cpu(1_500)).isEqualTo("1500m");
        assertThat(NodeResourceTopologyRenderer.bytes(96L << 30)).isEqualTo("96Gi");
        assertThat(NodeResourceTopologyRenderer.bytes(1_536)).isEqualTo("1536");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> zoneJson(NodeResourceTopology nrt, int index) {
        List<Map<String, Object>> zones = (List<Map<String, Object>>)
                NrtApi.toResource(nrt).getAdditionalProperties().get("zones");
        return zones.get(index);
    }

    private static long millis(String cpu) {
        return CpuQuantity.parseMillis("cpu", cpu);
    }

    private static long bytes(String memory) {
        return MemoryQuantity.parseBytes(memory);
    }
}
