package io.podnuma.agent.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.picture.CpuMarks;
import io.podnuma.agent.engine.picture.MachinePicture;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.NumaMask;
import java.util.List;

/** Renders a simulation as a table or as the JSON schema documented in node-agent/docs/behaviour.md ({@value #SCHEMA}). */
final class SimulateView {

    static final String SCHEMA = "podnuma.io/simulate/v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SimulateView() {}

    static ObjectNode toJson(SimulateCommand.Result r) {
        NodeState s = r.state();
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("policy", r.policy());
        ArrayNode steps = root.putArray("steps");
        for (SimulateCommand.Step st : r.steps()) {
            ObjectNode n = steps.addObject();
            n.put("file", st.file());
            n.put("action", st.action());
            n.put("namespace", st.namespace());
            n.put("name", st.name());
            n.put("outcome", st.outcome());
        }
        ArrayNode pods = root.putArray("pods");
        for (PodAssignment p : s.pods().values()) {
            ObjectNode pn = pods.addObject();
            pn.put("namespace", p.ref().namespace());
            pn.put("name", p.ref().name());
            pn.put("uid", p.ref().uid());
            pn.put("qos", p.qos().wireName());
            pn.put("placement", p.placement().wireName());
            ids(pn.putArray("numaAffinity"), p.numaAffinity().toArray());
            pn.put("bubble", p.bubble().toString());
            pn.put("podSharedPool", p.podSharedPool().toString());
            blocks(pn.putArray("memory"), p.podMemory());
            ArrayNode cs = pn.putArray("containers");
            for (ContainerAssignment c : p.containers()) {
                CpuSet cpus = s.cpusOf(p, c);
                ObjectNode cn = cs.addObject();
                cn.put("name", c.name());
                cn.put("type", c.type().wireName());
                cn.put("kind", c.kind().wireName());
                cn.put("cpus", cpus.toString());
                ids(cn.putArray("numaNodes"), r.topology().numaNodesOf(cpus).toArray());
                ids(cn.putArray("memoryNodes"), c.memoryNodes().toArray());
                blocks(cn.putArray("memory"), c.memory());
            }
        }
        ArrayNode rejected = root.putArray("rejected");
        for (SimulateCommand.Rejection rj : r.rejections()) {
            ObjectNode n = rejected.addObject();
            n.put("file", rj.file());
            n.put("namespace", rj.namespace());
            n.put("name", rj.name());
            n.put("reason", rj.reason());
            n.put("message", rj.message());
        }
        ObjectNode node = root.putObject("node");
        node.put("sharedPool", s.sharedPool().toString());
        node.put("reserved", r.allocator().reservedCpus().toString());
        node.put("exclusive", exclusive(s).toString());
        return root;
    }

    private static CpuSet exclusive(NodeState s) {
        CpuSet.Builder b = CpuSet.builder();
        s.pods().values().forEach(p -> b.addAll(p.exclusiveCpus()));
        return b.build();
    }

    private static void ids(ArrayNode a, int[] ids) {
        for (int id : ids) {
            a.add(id);
        }
    }

    private static void blocks(ArrayNode a, List<MemoryBlock> blocks) {
        for (MemoryBlock b : blocks) {
            ObjectNode n = a.addObject();
            n.put("resource", b.resource().resourceName());
            n.put("size", MemoryQuantity.format(b.size()));
            n.put("bytes", b.size());
            ids(n.putArray("numaNodes"), b.nodes().toArray());
        }
    }

    /** The machine with every CPU marked by the simulation's allocation ({@link MachinePicture}). */
    static String toSvg(SimulateCommand.Result r, String machine) {
        NodeState s = r.state();
        String title = "simulate: policy " + r.policy() + " on " + machine + ": "
                + s.pods().size() + " pod(s) admitted, " + r.rejections().size() + " rejected";
        return MachinePicture.svg(
                title, r.topology(), CpuMarks.of(r.topology(), s, r.allocator().reservedCpus()));
    }

    static String toTable(SimulateCommand.Result r) {
        NodeState s = r.state();
        StringBuilder sb = new StringBuilder();
        sb.append("policy ")
                .append(r.policy())
                .append(": ")
                .append(r.steps().size())
                .append(" step(s), ")
                .append(s.pods().size())
                .append(" pod(s) admitted, ")
                .append(r.rejections().size())
                .append(" rejected\n\n");
        String fmt = "%-28s %-14s %-8s %-12s %-18s %-6s %-6s %s%n";
        sb.append(String.format(fmt, "POD", "CONTAINER", "TYPE", "KIND", "CPUS", "NUMA", "MEMS", "MEMORY"));
        for (PodAssignment p : s.pods().values()) {
            String pod = p.ref().namespace() + "/" + p.ref().name();
            String budget = p.hasBubble() ? "bubble " + p.bubble() + ", pod pool " + show(p.podSharedPool()) : "";
            sb.append(String.format(
                    fmt,
                    pod,
                    "-",
                    "pod",
                    p.placement().wireName(),
                    show(p.bubble()),
                    nodes(p.numaAffinity()),
                    "-",
                    memory(p.podMemory()) + (budget.isEmpty() ? "" : "  (" + budget + ")")));
            for (ContainerAssignment c : p.containers()) {
                CpuSet cpus = s.cpusOf(p, c);
                sb.append(String.format(
                        fmt,
                        "",
                        c.name(),
                        c.type().wireName(),
                        c.kind().wireName(),
                        show(cpus),
                        show(r.topology().numaNodesOf(cpus)),
                        nodes(c.memoryNodes()),
                        memory(c.memory())));
            }
        }
        if (!r.rejections().isEmpty()) {
            sb.append("\nREJECTED\n");
            for (SimulateCommand.Rejection rj : r.rejections()) {
                sb.append(rj.namespace())
                        .append('/')
                        .append(rj.name())
                        .append(" (")
                        .append(rj.file())
                        .append("): ")
                        .append(rj.reason())
                        .append(": ")
                        .append(rj.message())
                        .append('\n');
            }
        }
        sb.append("\nnode shared pool: ")
                .append(show(s.sharedPool()))
                .append(" (")
                .append(s.sharedPool().size())
                .append(" CPUs); reserved: ")
                .append(show(r.allocator().reservedCpus()))
                .append("; exclusive: ")
                .append(show(exclusive(s)))
                .append('\n');
        return sb.toString();
    }

    private static String show(CpuSet cpus) {
        return cpus.isEmpty() ? "-" : cpus.toString();
    }

    private static String nodes(NumaMask mask) {
        return mask.isEmpty() ? "-" : CpuSet.of(mask.toArray()).toString();
    }

    private static String memory(List<MemoryBlock> blocks) {
        if (blocks.isEmpty()) {
            return "-";
        }
        StringBuilder sb = new StringBuilder();
        for (MemoryBlock b : blocks) {
            sb.append(sb.isEmpty() ? "" : ", ")
                    .append(b.resource())
                    .append('=')
                    .append(MemoryQuantity.format(b.size()));
        }
        return sb.toString();
    }
}
