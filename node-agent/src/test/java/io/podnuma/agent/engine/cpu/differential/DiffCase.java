package io.podnuma.agent.engine.cpu.differential;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One differential case: a machine, a static policy configuration and a sequence of container
 * admissions and removals. Serialised as the kubelet oracle's input line (see
 * {@code src/test/go/kubeletoracle/main.go}); the machine is also kept as a {@link CpuTopology} for
 * the Java side.
 *
 * @param id the case id, {@code s<seed>}: the seed regenerates it
 * @param machine how the machine was made (a fixture name or the random layout), for reports
 * @param cpus every online CPU as {@code [cpu, socket, numaNode, core, uncoreCache]}
 * @param reservedCount reserved CPUs; with {@code reservedList} null the policy picks them
 * @param reservedList an explicit reservation in list syntax, or null
 * @param options the static policy options by upstream name
 * @param topologyManagerPolicy the topology manager policy in force
 * @param ops the operations, in order
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record DiffCase(
        String id,
        String machine,
        List<int[]> cpus,
        int reservedCount,
        String reservedList,
        Map<String, String> options,
        String topologyManagerPolicy,
        List<Op> ops,
        @JsonIgnore CpuTopology topology) {

    /** Admission ({@code add}) or removal ({@code remove}) of one container. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    record Op(
            String op,
            String pod,
            String container,
            int cpus,
            boolean init,
            boolean sidecar,
            @JsonInclude(JsonInclude.Include.NON_NULL) String hint,
            boolean hints) {

        static Op add(
                String pod, String container, int cpus, boolean init, boolean sidecar, String hint, boolean hints) {
            return new Op("add", pod, container, cpus, init, sidecar, hint, hints);
        }

        static Op remove(String pod, String container) {
            return new Op("remove", pod, container, 0, false, false, null, false);
        }

        @JsonIgnore
        boolean isAdd() {
            return "add".equals(op);
        }

        @JsonIgnore
        String owner() {
            return pod + "/" + container;
        }
    }

    /** The CPU rows of a machine as the oracle reads them. */
    static List<int[]> rows(CpuTopology topo) {
        List<int[]> rows = new ArrayList<>();
        for (CpuInfo c : topo.cpus()) {
            rows.add(new int[] {c.cpu(), c.socket(), c.numaNode(), c.core(), c.uncoreCache()});
        }
        return rows;
    }
}
