package io.podnuma.bench;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * One exclusive-CPU benchmark: on the loaded node, admit a container of {@code request} CPUs with the NUMA
 * affinity {@code hint}, then remove it.
 *
 * @param id the name shared by the JMH run, the Go program and the report
 * @param options the static policy options by their kubelet names (values {@code "true"})
 */
public record AllocationScenario(String id, Map<String, String> options, int request, CpuSet hint) {

    /** Reserved CPUs, picked by the policy (two whole cores on node 0). */
    public static final int RESERVED_COUNT = 4;

    /** The topology manager policy the CPU manager is told about. */
    public static final String TOPOLOGY_MANAGER_POLICY = "best-effort";

    /** The pod whose container every scenario admits and removes. */
    public static final String POD = "bench";

    public AllocationScenario {
        options = new TreeMap<>(options);
    }

    /** Option sets, by the name that appears in ids. */
    static final Map<String, Map<String, String>> OPTION_SETS = optionSets();

    private static Map<String, Map<String, String>> optionSets() {
        Map<String, Map<String, String>> sets = new LinkedHashMap<>();
        sets.put("none", Map.of());
        sets.put("full-pcpus-only", Map.of(StaticPolicyOptions.FULL_PCPUS_ONLY, "true"));
        sets.put(
                "full-pcpus-only+distribute-cpus-across-numa",
                Map.of(
                        StaticPolicyOptions.FULL_PCPUS_ONLY,
                        "true",
                        StaticPolicyOptions.DISTRIBUTE_CPUS_ACROSS_NUMA,
                        "true"));
        return sets;
    }

    /** Every scenario: each option set with 2, 4 and 16 CPUs on NUMA node 5 and 64 CPUs over socket 1. */
    public static List<AllocationScenario> all() {
        List<AllocationScenario> all = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> set : OPTION_SETS.entrySet()) {
            for (int request : new int[] {2, 4, 16}) {
                all.add(new AllocationScenario(id(set.getKey(), request), set.getValue(), request, CpuSet.of(5)));
            }
            all.add(new AllocationScenario(id(set.getKey(), 64), set.getValue(), 64, CpuSet.of(4, 5, 6, 7)));
        }
        return all;
    }

    static String id(String optionSet, int request) {
        return "alloc/" + optionSet + "/" + request + "cpu";
    }

    public static AllocationScenario byId(String id) {
        return all().stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElseThrow(() -> new NoSuchElementException("no allocation scenario \"" + id + "\"; known: "
                        + all().stream().map(AllocationScenario::id).toList()));
    }

    public String owner() {
        return POD + "/" + NodeLoad.CONTAINER;
    }

    public StaticPolicy policy(CpuTopology topo) {
        return StaticPolicy.create(
                topo, StaticPolicyOptions.parse(options), ReservedCpus.count(RESERVED_COUNT), TOPOLOGY_MANAGER_POLICY);
    }

    /** The policy and the loaded node, ready for {@link Prepared#allocateAndRelease()}. */
    public Prepared prepare(CpuTopology topo, NodeLoad load) {
        StaticPolicy policy = policy(topo);
        return new Prepared(this, policy, load.applyTo(policy, policy.initialState()));
    }

    /** A scenario bound to its policy and loaded state. */
    public record Prepared(AllocationScenario scenario, StaticPolicy policy, CpuState loaded) {

        /** The CPUs the container gets on the loaded node. */
        public CpuSet allocate() throws CpuAllocationException {
            return policy.allocate(loaded, scenario.owner(), scenario.request(), scenario.hint(), CpuSet.empty())
                    .cpus();
        }

        /** The measured operation: admit, then remove; returns the state after both. */
        public CpuState allocateAndRelease() throws CpuAllocationException {
            StaticPolicy.Allocation a =
                    policy.allocate(loaded, scenario.owner(), scenario.request(), scenario.hint(), CpuSet.empty());
            return policy.release(a.state(), scenario.owner());
        }
    }
}
