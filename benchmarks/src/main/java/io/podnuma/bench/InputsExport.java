package io.podnuma.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes every benchmark input, with podnuma's answer to each, as one JSON file for the Go program, so that the
 * kubelet is timed on exactly what JMH times (and the report can say whether both gave the same answer).
 *
 * <p>Usage: {@code InputsExport <output.json>}; the machine is {@link BenchMachine#sysfsRoot()}.
 */
public final class InputsExport {

    private InputsExport() {}

    public static void main(String[] args) throws IOException, CpuAllocationException {
        if (args.length != 1) {
            System.err.println("usage: InputsExport <output.json>");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        new ObjectMapper().writeValue(out.toFile(), inputs(BenchMachine.topology()));
        System.out.println("benchmark inputs written to " + out);
    }

    static Map<String, Object> inputs(CpuTopology topo) throws CpuAllocationException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("machine", machine(topo));
        root.put("topologyManagerPolicy", AllocationScenario.TOPOLOGY_MANAGER_POLICY);
        root.put("reservedCount", AllocationScenario.RESERVED_COUNT);
        root.put("container", NodeLoad.CONTAINER);
        root.put("benchPod", AllocationScenario.POD);
        NodeLoad load = NodeLoad.standard();
        root.put("load", load.ops().stream().map(InputsExport::op).toList());
        List<Map<String, Object>> allocations = new ArrayList<>();
        for (AllocationScenario scenario : AllocationScenario.all()) {
            allocations.add(allocation(topo, load, scenario));
        }
        root.put("allocations", allocations);
        root.put("merges", MergeShapes.all().stream().map(InputsExport::merge).toList());
        root.put("simulate", simulate(topo));
        return root;
    }

    private static Map<String, Object> machine(CpuTopology topo) {
        List<int[]> rows = new ArrayList<>();
        for (CpuInfo c : topo.cpus()) {
            rows.add(new int[] {c.cpu(), c.socket(), c.numaNode(), c.core(), c.uncoreCache()});
        }
        return Map.of("cpus", rows);
    }

    private static Map<String, Object> op(NodeLoad.Op op) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pod", op.pod());
        m.put("cpus", op.cpus());
        if (op.isAdd()) {
            m.put("numaNode", op.numaNode());
        }
        return m;
    }

    private static Map<String, Object> allocation(CpuTopology topo, NodeLoad load, AllocationScenario scenario)
            throws CpuAllocationException {
        AllocationScenario.Prepared prepared = scenario.prepare(topo, load);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", scenario.id());
        m.put("options", scenario.options());
        m.put("request", scenario.request());
        m.put("hint", scenario.hint().toString());
        m.put(
                "expectDefaultAfterLoad",
                prepared.policy().shared(prepared.loaded()).toString());
        m.put("expectCpus", prepared.allocate().toString());
        return m;
    }

    private static Map<String, Object> simulate(CpuTopology topo) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", SimulateWorkload.ID);
        m.put("pods", SimulateWorkload.specs());
        m.put("expectDefault", new SimulateWorkload(topo).run().sharedPool().toString());
        return m;
    }

    private static Map<String, Object> merge(MergeShape shape) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", shape.id());
        m.put("description", shape.description());
        m.put("numaNodes", shape.numaNodes());
        m.put("permutations", shape.permutations());
        List<List<long[]>> providers = new ArrayList<>();
        for (List<TopologyHint> list : shape.providers()) {
            List<long[]> hints = new ArrayList<>(list.size());
            for (TopologyHint hint : list) {
                hints.add(new long[] {hint.numaMask().bits(), hint.preferred() ? 1 : 0});
            }
            providers.add(hints);
        }
        m.put("providers", providers);
        TopologyHint best = shape.admit().hint();
        m.put("expect", Map.of("numaNodes", nodeList(best.numaMask()), "preferred", best.preferred()));
        return m;
    }

    /** Linux list syntax of the node ids, as the Go program prints the kubelet's answer. */
    static String nodeList(NumaMask mask) {
        return mask == null ? "" : CpuSet.of(mask.toArray()).toString();
    }
}
