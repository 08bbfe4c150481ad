package io.podnuma.agent.engine.cpu;

import static io.podnuma.agent.engine.machine.TestTopologies.DUAL_SOCKET_HT;
import static io.podnuma.agent.engine.machine.TestTopologies.DUAL_SOCKET_MULTI_NUMA_HT;
import static io.podnuma.agent.engine.machine.TestTopologies.SINGLE_SOCKET_HT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StaticPolicyTest {

    private static final CpuSet NONE = CpuSet.empty();

    private static StaticPolicy policy(CpuTopology topo, StaticPolicyOptions options, ReservedCpus reserved) {
        return StaticPolicy.create(topo, options, reserved, "none");
    }

    private static StaticPolicyOptions opts(String... names) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        for (String n : names) {
            m.put(n, "true");
        }
        return StaticPolicyOptions.parse(m);
    }

    @Test
    void reservedCountTakesLowestPhysicalCoresFirst() {
        StaticPolicy p = policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2));
        assertThat(p.reserved()).hasToString("0,4");
        StaticPolicy one = policy(DUAL_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.count(1));
        assertThat(one.reserved()).hasToString("0");
        assertThat(one.reservedPhysical()).hasToString("0,6");
    }

    @Test
    void emptyReservationIsRefused() {
        assertThatThrownBy(() -> policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.count(0)))
                .isInstanceOf(InvalidCpuPolicyException.class)
                .hasMessageContaining("requires a non-empty CPU reservation");
        assertThatThrownBy(() -> policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.explicit(NONE)))
                .hasMessageContaining("requires a non-empty CPU reservation");
    }

    @Test
    void reservationOutsideTheMachineIsRefused() {
        assertThatThrownBy(() ->
                        policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.explicit(CpuSet.of(1, 9))))
                .hasMessage("reserved CPUs 9 are not online CPUs of this machine (online: 0-7)");
        assertThatThrownBy(() -> policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.count(9)))
                .hasMessageContaining("reserved CPU count 9 is out of range: allowed 1..8");
    }

    @Test
    void poolsWithoutAndWithStrictReservation() {
        StaticPolicy loose = policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.explicit(CpuSet.of(0)));
        CpuState s = loose.initialState();
        assertThat(loose.shared(s)).hasToString("0-7");
        assertThat(loose.assignable(s)).hasToString("1-7");

        StaticPolicy strict = policy(
                SINGLE_SOCKET_HT,
                opts(StaticPolicyOptions.STRICT_CPU_RESERVATION),
                ReservedCpus.explicit(CpuSet.of(0)));
        CpuState t = strict.initialState();
        assertThat(strict.shared(t)).hasToString("1-7");
        assertThat(strict.assignable(t)).hasToString("1-7");
    }

    @Test
    void allocateTakesFromAssignableAndShrinksSharedPool() throws CpuAllocationException {
        StaticPolicy p = policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2));
        StaticPolicy.Allocation a = p.allocate(p.initialState(), "pod1/app", 2, NONE, NONE);
        assertThat(a.cpus()).hasToString("1,5");
        assertThat(p.shared(a.state())).hasToString("0,2-4,6-7");
        assertThat(a.state().assignment("pod1/app")).contains(CpuSet.of(1, 5));
        // Asking again returns the first answer (idempotent admission).
        assertThat(p.allocate(a.state(), "pod1/app", 2, NONE, NONE).cpus()).isEqualTo(a.cpus());
    }

    @Test
    void numaAffinityIsTakenFirstThenTheRestAnywhere() throws CpuAllocationException {
        StaticPolicy p = policy(DUAL_SOCKET_MULTI_NUMA_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2));
        assertThat(p.reserved()).hasToString("0,40");
        StaticPolicy.Allocation inNode2 = p.allocate(p.initialState(), "a", 4, CpuSet.of(2), NONE);
        assertThat(inNode2.cpus()).hasToString("20-21,60-61");
        // 24 CPUs with affinity to node 3 (20 CPUs): all of node 3, then 4 more from elsewhere.
        StaticPolicy.Allocation spill = p.allocate(p.initialState(), "b", 24, CpuSet.of(3), NONE);
        assertThat(spill.cpus()
                        .intersection(DUAL_SOCKET_MULTI_NUMA_HT.cpusInNumaNode(3))
                        .size())
                .isEqualTo(20);
        assertThat(spill.cpus().size()).isEqualTo(24);
    }

    @Test
    void alignBySocketWidensTheAffinityToTheSocket() throws CpuAllocationException {
        StaticPolicy p =
                policy(DUAL_SOCKET_MULTI_NUMA_HT, opts(StaticPolicyOptions.ALIGN_BY_SOCKET), ReservedCpus.count(2));
        // Node 2 has 20 CPUs; 30 requested fit in socket 1 (nodes 2 and 3).
        StaticPolicy.Allocation a = p.allocate(p.initialState(), "a", 30, CpuSet.of(2), NONE);
        assertThat(a.cpus().isSubsetOf(DUAL_SOCKET_MULTI_NUMA_HT.cpusInSocket(1)))
                .isTrue();
    }

    @Test
    void fullPcpusOnlyRejectsOddRequestsAndShortagesWithUpstreamMessages() throws CpuAllocationException {
        StaticPolicy p = policy(
                SINGLE_SOCKET_HT, opts(StaticPolicyOptions.FULL_PCPUS_ONLY), ReservedCpus.explicit(CpuSet.of(0)));
        assertThatThrownBy(() -> p.allocate(p.initialState(), "a", 3, NONE, NONE))
                .isInstanceOfSatisfying(SmtAlignmentException.class, e -> {
                    assertThat(e.reason()).isEqualTo("SMTAlignmentError");
                    assertThat(e.requestedCpus()).isEqualTo(3);
                    assertThat(e.cpusPerCore()).isEqualTo(2);
                    assertThat(e.causedByPhysicalCpus()).isFalse();
                })
                .hasMessage("SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2");
        // CPU 0 is reserved, so its sibling 4 is unusable too: 6 physical CPUs remain.
        assertThatThrownBy(() -> p.allocate(p.initialState(), "a", 8, NONE, NONE))
                .isInstanceOfSatisfying(
                        SmtAlignmentException.class,
                        e -> assertThat(e.availablePhysicalCpus()).isEqualTo(6))
                .hasMessage("SMT Alignment Error: not enough free physical CPUs: available physical CPUs = 6,"
                        + " requested CPUs = 8, CPUs per core = 2");
        StaticPolicy.Allocation ok = p.allocate(p.initialState(), "a", 6, NONE, NONE);
        assertThat(ok.cpus()).hasToString("1-3,5-7");
    }

    @Test
    void notEnoughCpusIsAnUnexpectedAdmissionError() {
        StaticPolicy p = policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2));
        assertThatThrownBy(() -> p.allocate(p.initialState(), "a", 7, NONE, NONE))
                .isInstanceOfSatisfying(
                        CpuAllocationException.class,
                        e -> assertThat(e.reason()).isEqualTo("UnexpectedAdmissionError"))
                .hasMessage("not enough cpus available to satisfy request: requested=7, available=6");
    }

    @Test
    void releaseReturnsCpusExceptThoseStillHeldOrStrictlyReserved() throws CpuAllocationException {
        StaticPolicy p = policy(SINGLE_SOCKET_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2));
        CpuState s0 = p.initialState();
        StaticPolicy.Allocation init = p.allocate(s0, "pod/init", 2, NONE, NONE);
        // The app container reuses the init container's CPUs.
        StaticPolicy.Allocation app = p.allocate(init.state(), "pod/app", 2, NONE, init.cpus());
        assertThat(app.cpus()).isEqualTo(init.cpus());
        CpuState afterInit = p.release(app.state(), "pod/init");
        assertThat(p.shared(afterInit)).hasToString("0,2-4,6-7");
        CpuState empty = p.release(afterInit, "pod/app");
        assertThat(empty).isEqualTo(s0);
        assertThat(p.release(empty, "unknown")).isSameAs(empty);
    }

    @Test
    void hintsListEveryFittingMaskAndPreferTheNarrowest() {
        StaticPolicy p = policy(DUAL_SOCKET_MULTI_NUMA_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2));
        List<CpuHint> small = p.hints(p.initialState(), 4, NONE);
        assertThat(small).hasSize(15);
        assertThat(small.subList(0, 4)).extracting(CpuHint::preferred).containsOnly(true);
        assertThat(small.subList(4, 15)).extracting(CpuHint::preferred).containsOnly(false);
        assertThat(small.getFirst().numaNodes()).hasToString("0");
        // 25 CPUs need two nodes; node 0 has only 18 assignable CPUs, so no single node fits.
        List<CpuHint> big = p.hints(p.initialState(), 25, NONE);
        assertThat(big.getFirst().numaNodes()).hasToString("0-1");
        assertThat(big.stream()
                        .filter(CpuHint::preferred)
                        .map(h -> h.numaNodes().toString()))
                .containsExactly("0-1", "0,2", "0,3", "1-2", "1,3", "2-3");
    }

    @Test
    void hintsMustCoverReusableCpus() {
        StaticPolicy p = policy(DUAL_SOCKET_MULTI_NUMA_HT, StaticPolicyOptions.NONE, ReservedCpus.count(2));
        // CPU 21 is on node 2 (nodes are CPUs 10n..10n+9 and their siblings 40 up), so every mask must contain
        // node 2; each of them has room for 4 CPUs. Only the single node is preferred: any one node holds 4.
        List<CpuHint> hints = p.hints(p.initialState(), 4, CpuSet.of(21));
        assertThat(hints)
                .isNotEmpty()
                .containsExactly(
                        new CpuHint(CpuSet.of(2), true),
                        new CpuHint(CpuSet.of(0, 2), false),
                        new CpuHint(CpuSet.of(1, 2), false),
                        new CpuHint(CpuSet.of(2, 3), false),
                        new CpuHint(CpuSet.of(0, 1, 2), false),
                        new CpuHint(CpuSet.of(0, 2, 3), false),
                        new CpuHint(CpuSet.of(1, 2, 3), false),
                        new CpuHint(CpuSet.of(0, 1, 2, 3), false));
        // Reusable CPUs on nodes 2 and 3 rule out every single node, but the narrowest fit on capacity is still one
        // node, so none of the remaining masks is preferred (as the kubelet measures it).
        assertThat(p.hints(p.initialState(), 4, CpuSet.of(21, 31)))
                .isNotEmpty()
                .containsExactly(
                        new CpuHint(CpuSet.of(2, 3), false),
                        new CpuHint(CpuSet.of(0, 2, 3), false),
                        new CpuHint(CpuSet.of(1, 2, 3), false),
                        new CpuHint(CpuSet.of(0, 1, 2, 3), false));
    }

    @Test
    void alignBySocketPrefersMasksWithinMinimalSockets() {
        StaticPolicy p =
                policy(DUAL_SOCKET_MULTI_NUMA_HT, opts(StaticPolicyOptions.ALIGN_BY_SOCKET), ReservedCpus.count(2));
        List<CpuHint> hints = p.hints(p.initialState(), 4, NONE);
        // Any mask within one socket is preferred: {0,1} and {2,3} too.
        assertThat(hints.stream()
                        .filter(CpuHint::preferred)
                        .map(h -> h.numaNodes().toString()))
                .containsExactly("0", "1", "2", "3", "0-1", "2-3");
    }

    @Test
    void optionsParseLikeTheKubelet() {
        assertThat(StaticPolicyOptions.parse(Map.of("full-pcpus-only", "True", "strict-cpu-reservation", "1")))
                .isEqualTo(new StaticPolicyOptions(true, false, false, false, true, false));
        assertThatThrownBy(() -> StaticPolicyOptions.parse(Map.of("full-pcpu-only", "true")))
                .hasMessageContaining("unsupported cpumanager option: \"full-pcpu-only\" (true)")
                .hasMessageContaining("allowed: align-by-socket,");
        assertThatThrownBy(() -> StaticPolicyOptions.parse(Map.of("align-by-socket", "yes")))
                .hasMessageContaining("bad value for option \"align-by-socket\": \"yes\" is not a boolean");
        // Go's ParseBool refuses mixed case and padding, so the kubelet would too.
        assertThatThrownBy(() -> StaticPolicyOptions.parse(Map.of("align-by-socket", "tRue")))
                .hasMessageContaining("\"tRue\" is not a boolean");
        assertThatThrownBy(() -> StaticPolicyOptions.parse(Map.of("align-by-socket", " true")))
                .hasMessageContaining("is not a boolean");
        assertThat(StaticPolicyOptions.parse(Map.of("align-by-socket", "F")).alignBySocket())
                .isFalse();
    }

    @Test
    void incompatibleOptionsAreRefused() {
        assertThatThrownBy(() -> opts("full-pcpus-only", "distribute-cpus-across-cores"))
                .hasMessage("static policy options full-pcpus-only and distribute-cpus-across-cores can not be used"
                        + " at the same time");
        assertThatThrownBy(() -> opts("distribute-cpus-across-numa", "distribute-cpus-across-cores"))
                .hasMessageContaining("distribute-cpus-across-numa and distribute-cpus-across-cores");
        assertThatThrownBy(() -> opts("prefer-align-cpus-by-uncorecache", "distribute-cpus-across-cores"))
                .hasMessageContaining("prefer-align-cpus-by-uncorecache and distribute-cpus-across-cores");
        assertThatThrownBy(() -> opts("prefer-align-cpus-by-uncorecache", "distribute-cpus-across-numa"))
                .hasMessageContaining("prefer-align-cpus-by-uncorecache and distribute-cpus-across-numa");
    }

    @Test
    void alignBySocketNeedsTheRightTopologyAndPolicy() {
        StaticPolicyOptions o = opts("align-by-socket");
        assertThatThrownBy(() -> StaticPolicy.create(DUAL_SOCKET_HT, o, ReservedCpus.count(1), "single-numa-node"))
                .hasMessageContaining("single-numa-node policy is incompatible with CPUManager align-by-socket");
        CpuTopology twoSocketsOneNode =
                io.podnuma.agent.engine.machine.TestTopologies.build(8, c -> c, c -> c / 4, c -> 0, c -> c / 4);
        assertThatThrownBy(() -> StaticPolicy.create(twoSocketsOneNode, o, ReservedCpus.count(1), "none"))
                .hasMessageContaining("number of sockets (2) are more than number of NUMA (1)");
    }

    @Test
    void distributeAcrossNumaWithFullCoresUsesCoreSizedGroups() throws CpuAllocationException {
        StaticPolicy p = policy(
                DUAL_SOCKET_MULTI_NUMA_HT,
                opts("distribute-cpus-across-numa", "full-pcpus-only"),
                ReservedCpus.explicit(CpuSet.of(0, 40)));
        StaticPolicy.Allocation a = p.allocate(p.initialState(), "a", 26, NONE, NONE);
        assertThat(a.cpus().size()).isEqualTo(26);
        assertThat(DUAL_SOCKET_MULTI_NUMA_HT.cpusInCores(DUAL_SOCKET_MULTI_NUMA_HT.coresOf(a.cpus())))
                .isEqualTo(a.cpus());
        assertThat(DUAL_SOCKET_MULTI_NUMA_HT.numaNodesOf(a.cpus()).size()).isEqualTo(2);
    }
}
