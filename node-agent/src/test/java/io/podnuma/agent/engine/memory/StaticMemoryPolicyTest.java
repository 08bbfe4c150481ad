package io.podnuma.agent.engine.memory;

import static io.podnuma.agent.engine.memory.MemoryResource.MEMORY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StaticMemoryPolicyTest {

    static final long GI = 1L << 30;
    static final long MI = 1L << 20;
    static final MemoryResource HP2M = MemoryResource.hugepages(2 * MI);
    static final MemoryResource HP1G = MemoryResource.hugepages(GI);

    /** Node 0: 16Gi with 1Gi of 2Mi pages and 2Gi of 1Gi pages; node 1: 16Gi, no huge pages. */
    static StaticMemoryPolicy twoNodes() {
        return new StaticMemoryPolicy(
                List.of(new NumaMemory(0, 16 * GI, Map.of(2 * MI, GI, GI, 2 * GI)), NumaMemory.of(1, 16 * GI)),
                ReservedMemory.parse(
                        Map.of(0, Map.of("memory", "1Gi", "hugepages-2Mi", "0"), 1, Map.of("memory", "512Mi"))));
    }

    static Map<MemoryResource, Long> memory(long bytes) {
        return Map.of(MEMORY, bytes);
    }

    @Test
    void accountsTotalReservedAllocatableAndFreePerNodeAndResource() {
        MemoryState state = twoNodes().initialState();
        assertThat(state.node(0).table(MEMORY)).isEqualTo(new MemoryTable(16 * GI, GI, 12 * GI, 0, 12 * GI));
        assertThat(state.node(0).table(HP2M)).isEqualTo(new MemoryTable(GI, 0, GI, 0, GI));
        assertThat(state.node(0).table(HP1G)).isEqualTo(new MemoryTable(2 * GI, 0, 2 * GI, 0, 2 * GI));
        assertThat(state.node(1).table(MEMORY))
                .isEqualTo(new MemoryTable(16 * GI, 512 * MI, 15 * GI + 512 * MI, 0, 15 * GI + 512 * MI));
        assertThat(state.node(1).table(HP2M)).isNull();
        assertThat(state.node(1).group()).isEqualTo(NumaMask.of(1));
    }

    @Test
    void reservedMemoryMustBeConfiguredAndConsistent() {
        List<NumaMemory> machine = List.of(NumaMemory.of(0, 8 * GI), NumaMemory.of(1, 8 * GI));
        assertThatThrownBy(() -> new StaticMemoryPolicy(machine, ReservedMemory.parse(Map.of())))
                .hasMessageContaining("needs memory reserved for the system")
                .hasMessageContaining("(0: 0, 1: 0)");
        assertThatThrownBy(() ->
                        new StaticMemoryPolicy(machine, ReservedMemory.parse(Map.of(0, Map.of("memory", "0")))))
                .hasMessageContaining("gives 0 on every NUMA node");
        assertThatThrownBy(() ->
                        new StaticMemoryPolicy(machine, ReservedMemory.parse(Map.of(2, Map.of("memory", "1Gi")))))
                .hasMessageContaining("reservedMemory names NUMA node 2, which does not exist")
                .hasMessageContaining("{0-1}");
        assertThatThrownBy(() -> new StaticMemoryPolicy(
                        machine, ReservedMemory.parse(Map.of(0, Map.of("memory", "1Gi", "hugepages-1Gi", "1Gi")))))
                .hasMessageContaining("NUMA node 0 names hugepages-1Gi, which that node does not have");
        assertThatThrownBy(() ->
                        new StaticMemoryPolicy(machine, ReservedMemory.parse(Map.of(1, Map.of("memory", "9Gi")))))
                .hasMessageContaining("NUMA node 1 memory is 9Gi, but the node has only 8Gi");
        assertThatThrownBy(() -> ReservedMemory.parse(Map.of(0, Map.of("memory", "lots"))))
                .hasMessageContaining("reservedMemory[numaNode=0].memory \"lots\" is not a valid memory quantity");
        assertThatThrownBy(() -> new StaticMemoryPolicy(
                        List.of(NumaMemory.of(0, GI), NumaMemory.of(0, GI)),
                        ReservedMemory.parse(Map.of(0, Map.of("memory", "1Mi")))))
                .hasMessageContaining("NUMA node 0 is listed twice");
    }

    @Test
    void hintsPreferTheFewestNodesWhoseAllocatableCoversTheRequest() {
        StaticMemoryPolicy policy = twoNodes();
        MemoryState state = policy.initialState();
        assertThat(policy.hints(state, memory(4 * GI)))
                .containsExactly(Map.entry(
                        "memory",
                        List.of(
                                TopologyHint.preferred(NumaMask.of(0)),
                                TopologyHint.preferred(NumaMask.of(1)),
                                TopologyHint.notPreferred(NumaMask.of(0, 1)))));
        assertThat(policy.hints(state, memory(20 * GI)))
                .containsExactly(Map.entry("memory", List.of(TopologyHint.preferred(NumaMask.of(0, 1)))));
        assertThat(policy.hints(state, memory(40 * GI))).containsExactly(Map.entry("memory", List.of()));
        assertThat(policy.hints(state, Map.of())).isEmpty();
        // every requested resource must fit: 1Gi pages exist on node 0 only
        assertThat(policy.hints(state, Map.of(MEMORY, GI, HP1G, GI)))
                .containsOnlyKeys("memory", "hugepages-1Gi")
                .containsEntry(
                        "hugepages-1Gi",
                        List.of(TopologyHint.preferred(NumaMask.of(0)), TopologyHint.notPreferred(NumaMask.of(0, 1))));
        assertThatThrownBy(() -> policy.hints(state, Map.of(MemoryResource.hugepages(32 * MI), 32 * MI)))
                .isInstanceOf(MemoryAllocationException.class)
                .hasMessageContaining("hugepages-32Mi is not available on this machine");
    }

    @Test
    void aRequestBiggerThanOneNodeFormsAGroupThatServesOnlyItself() {
        StaticMemoryPolicy policy = twoNodes();
        MemoryState state = policy.allocate(
                policy.initialState(), "pod-a/big", TopologyHint.preferred(NumaMask.of(0, 1)), memory(20 * GI));
        MemoryBlock block = state.blocks("pod-a/big").getFirst();
        assertThat(block.nodes()).isEqualTo(NumaMask.of(0, 1));
        // charged node by node, lowest first
        assertThat(block.charged()).containsExactly(Map.entry(0, 12 * GI), Map.entry(1, 8 * GI));
        assertThat(state.node(0).group()).isEqualTo(NumaMask.of(0, 1));
        assertThat(state.node(1).table(MEMORY).free()).isEqualTo(7 * GI + 512 * MI);
        assertThat(state.memoryNodes("pod-a/big")).isEqualTo(NumaMask.of(0, 1));

        // single-node hints on grouped nodes disappear; the group itself is not preferred for a small request
        assertThat(policy.hints(state, memory(GI)))
                .containsExactly(Map.entry("memory", List.of(TopologyHint.notPreferred(NumaMask.of(0, 1)))));
        assertThatThrownBy(
                        () -> policy.allocate(state, "pod-b/small", TopologyHint.preferred(NumaMask.of(1)), memory(GI)))
                .isInstanceOf(MemoryAllocationException.class)
                .hasMessageContaining("pod-b/small: NUMA nodes {1} would mix single-node and multi-node allocations")
                .hasMessageContaining("node 1 in group {0-1}");
    }

    @Test
    void aNodeHoldingSingleNodeMemoryCannotJoinAGroup() {
        StaticMemoryPolicy policy = twoNodes();
        MemoryState state = policy.allocate(
                policy.initialState(), "pod-a/app", TopologyHint.preferred(NumaMask.of(0)), memory(4 * GI));
        assertThat(policy.hints(state, memory(20 * GI))).containsExactly(Map.entry("memory", List.of()));
        assertThatThrownBy(() -> policy.allocate(
                        state, "pod-b/big", TopologyHint.notPreferred(NumaMask.of(0, 1)), memory(20 * GI)))
                .isInstanceOf(MemoryAllocationException.class)
                .hasMessageContaining("would mix single-node and multi-node allocations"
                        + " (node 0 holds single-node memory, node 1 unused)")
                .extracting(e -> ((MemoryAllocationException) e).reason())
                .isEqualTo("UnexpectedAdmissionError");
    }

    @Test
    void aTooNarrowHintIsExtendedToTheNarrowestFittingSuperset() {
        StaticMemoryPolicy policy = twoNodes();
        assertThat(policy.extend(policy.initialState(), memory(20 * GI), NumaMask.of(1)))
                .isEqualTo(TopologyHint.preferred(NumaMask.of(0, 1)));
        MemoryState state = policy.allocate(
                policy.initialState(), "pod/app", TopologyHint.preferred(NumaMask.of(1)), memory(20 * GI));
        assertThat(state.memoryNodes("pod/app")).isEqualTo(NumaMask.of(0, 1));

        // 1Gi pages exist only on node 0: {1} must grow to {0,1}, which is not preferred (node 0 alone fits)
        assertThatThrownBy(() -> policy.allocate(
                        policy.initialState(),
                        "pod/pages",
                        TopologyHint.preferred(NumaMask.of(1)),
                        Map.of(MEMORY, GI, HP1G, GI)))
                .hasMessageContaining("pod/pages: {1} is too small for memory=1Gi, hugepages-1Gi=1Gi")
                .hasMessageContaining("its narrowest extension {0-1} is not preferred");
        assertThat(policy.allocate(
                                policy.initialState(),
                                "pod/pages",
                                TopologyHint.notPreferred(NumaMask.of(1)),
                                Map.of(MEMORY, GI, HP1G, GI))
                        .memoryNodes("pod/pages"))
                .isEqualTo(NumaMask.of(0, 1));

        // node 0 holds single-node memory, so {0} cannot grow into a group
        MemoryState used = policy.allocate(
                policy.initialState(), "pod/filler", TopologyHint.preferred(NumaMask.of(0)), memory(11 * GI));
        assertThatThrownBy(
                        () -> policy.allocate(used, "pod/app", TopologyHint.preferred(NumaMask.of(0)), memory(2 * GI)))
                .hasMessageContaining("no superset of it has enough free memory");
    }

    @Test
    void aHintWithoutMaskGetsThePolicysOwnBestPlacement() {
        StaticMemoryPolicy policy = twoNodes();
        MemoryState state = policy.allocate(policy.initialState(), "pod/app", TopologyHint.dontCare(), memory(4 * GI));
        assertThat(state.memoryNodes("pod/app")).isEqualTo(NumaMask.of(0));
        assertThatThrownBy(() ->
                        policy.allocate(policy.initialState(), "pod/huge", TopologyHint.dontCare(), memory(40 * GI)))
                .hasMessageContaining("pod/huge: no NUMA node combination has enough free memory for memory=40Gi")
                .hasMessageContaining("free per NUMA node: 0 {memory=12Gi} 1 {memory=15872Mi}");
        assertThat(policy.allocate(policy.initialState(), "pod/big", TopologyHint.dontCare(), memory(20 * GI))
                        .memoryNodes("pod/big"))
                .isEqualTo(NumaMask.of(0, 1));
    }

    @Test
    void onlyTheChargeIsTakenAndReleaseGivesBackExactlyThat() {
        StaticMemoryPolicy policy = twoNodes();
        MemoryState initial = policy.initialState();
        MemoryState state = policy.allocate(
                initial,
                "pod/app",
                TopologyHint.preferred(NumaMask.of(0)),
                Map.of(MEMORY, 4 * GI, HP2M, 512 * MI),
                Map.of(MEMORY, GI, HP2M, 0L));
        assertThat(state.blocks("pod/app"))
                .extracting(MemoryBlock::resource, MemoryBlock::size, MemoryBlock::chargedTotal)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(MEMORY, 4 * GI, GI),
                        org.assertj.core.groups.Tuple.tuple(HP2M, 512 * MI, 0L));
        assertThat(state.node(0).table(MEMORY).free()).isEqualTo(11 * GI);
        assertThat(state.node(0).table(HP2M).free()).isEqualTo(GI);
        assertThat(state.node(0).assignments()).isEqualTo(2);
        assertThat(policy.release(state, "pod/app")).isEqualTo(initial);
        assertThatThrownBy(() -> policy.allocate(initial, "pod/x", TopologyHint.dontCare(), memory(GI), memory(2 * GI)))
                .hasMessageContaining("must satisfy 0 <= charge <= size");
    }

    @Test
    void allocateIsIdempotentPerOwnerAndReleaseOfUnknownOwnersIsANoOp() {
        StaticMemoryPolicy policy = twoNodes();
        MemoryState state = policy.allocate(
                policy.initialState(), "pod/app", TopologyHint.preferred(NumaMask.of(1)), memory(2 * GI));
        assertThat(policy.allocate(state, "pod/app", TopologyHint.preferred(NumaMask.of(0)), memory(3 * GI)))
                .isSameAs(state);
        assertThat(policy.release(state, "pod/other")).isSameAs(state);
    }

    @Test
    void hintEnumerationIsRefusedAboveTwentyNodesWithAClearError() {
        List<NumaMemory> machine = new java.util.ArrayList<>();
        for (int node = 0; node < 21; node++) {
            machine.add(NumaMemory.of(node, 4 * GI));
        }
        StaticMemoryPolicy policy =
                new StaticMemoryPolicy(machine, ReservedMemory.parse(Map.of(0, Map.of("memory", "1Gi"))));
        assertThatThrownBy(() -> policy.hints(policy.initialState(), memory(GI)))
                .isInstanceOf(MemoryAllocationException.class)
                .hasMessageContaining("memory hints for 21 NUMA nodes are not supported yet");
        // an explicit placement needs no enumeration
        assertThat(policy.allocate(
                                policy.initialState(), "pod/app", TopologyHint.preferred(NumaMask.of(20)), memory(GI))
                        .memoryNodes("pod/app"))
                .isEqualTo(NumaMask.of(20));
    }
}
