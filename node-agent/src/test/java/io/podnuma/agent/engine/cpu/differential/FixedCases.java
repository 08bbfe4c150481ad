package io.podnuma.agent.engine.cpu.differential;

import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-made cases that every run includes, for paths random cases rarely reach. */
final class FixedCases {

    private FixedCases() {}

    static List<DiffCase> all() {
        return List.of(kubeletHangsInDistributedRemainder());
    }

    /**
     * 4 NUMA nodes of 3 two-thread cores; one thread of each node reserved, so 5 CPUs are free per
     * node; {@code full-pcpus-only} + {@code distribute-cpus-across-numa}; 14 CPUs. The kubelet spreads
     * 2 per node and looks for 6 more: the pair of nodes with 3 CPUs left each passes its raw-sum test
     * (6 &ge; 6) but holds only two whole cores, and its placement loop never ends.
     */
    static DiffCase kubeletHangsInDistributedRemainder() {
        List<CpuInfo> cpus = new ArrayList<>();
        List<NumaNode> nodes = new ArrayList<>();
        for (int node = 0; node < 4; node++) {
            CpuSet.Builder inNode = CpuSet.builder();
            for (int core = node * 3; core < node * 3 + 3; core++) {
                CpuSet siblings = CpuSet.of(2 * core, 2 * core + 1);
                for (int cpu : siblings.toArray()) {
                    cpus.add(new CpuInfo(cpu, 0, 0, node, 2 * core, core, node, siblings));
                    inNode.add(cpu);
                }
            }
            nodes.add(new NumaNode(node, inNode.build(), 1L << 34, Map.of(), List.of()));
        }
        CpuTopology topo = new CpuTopology(cpus, CpuSet.empty(), nodes);
        Map<String, String> options = new LinkedHashMap<>();
        options.put(StaticPolicyOptions.FULL_PCPUS_ONLY, "true");
        options.put(StaticPolicyOptions.DISTRIBUTE_CPUS_ACROSS_NUMA, "true");
        return new DiffCase(
                "fixed-kubelet-hang",
                "1 socket x 4 NUMA x 3 cores x 2 threads, one thread reserved per node",
                DiffCase.rows(topo),
                4,
                "0,6,12,18",
                options,
                "best-effort",
                List.of(
                        DiffCase.Op.add("p0", "c0", 14, false, false, null, true),
                        DiffCase.Op.add("p0", "c1", 2, false, false, null, true)),
                topo);
    }
}
