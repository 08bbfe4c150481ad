package io.podnuma.agent.engine.cpu.differential;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.podnuma.agent.engine.memory.MemoryAllocationException;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.MemoryState;
import io.podnuma.agent.engine.memory.MemoryTable;
import io.podnuma.agent.engine.memory.NodeMemoryState;
import io.podnuma.agent.engine.memory.NumaMemory;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.memory.StaticMemoryPolicy;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Differential test of the memory manager's Static policy against the kubelet itself: the same generated
 * machines and container sequences go through {@link StaticMemoryPolicy} and through the kubelet v1.37.2's
 * {@code memorymanager} Static policy (the oracle's {@code memory} case type). Hints (masks, preferred, in
 * order), blocks, whether an admission fails, and every node's books after every operation must be
 * identical, and a configuration one side refuses the other must refuse too, except for the named entries
 * of {@link MemoryKnownDifferences}.
 *
 * <p>{@code -Dpodnuma.diff.memory.cases=N} sets the number of cases (default 3000),
 * {@code -Dpodnuma.diff.seed=S} the first seed (default 1; {@code random} for a time-based one). The
 * report goes to {@code target/kubeletoracle-memory/report.txt}.
 */
class MemoryManagerDifferentialIT {

    // node-agent: its ITs run there (module node-agent/it sets that working directory).
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path SOURCE = MODULE.resolve("src/test/go/kubeletoracle");
    private static final Path BUILD = MODULE.resolve("target/kubeletoracle");
    private static final Path WORK = MODULE.resolve("target/kubeletoracle-memory");

    @Test
    void javaMemoryPolicyGivesTheKubeletsAnswers() throws IOException, InterruptedException {
        Path go = KubeletOracle.goOrSkip(
                "MemoryManagerDifferentialIT", "StaticMemoryPolicyTest and MemoryManagerHarnessTest");

        int count = Integer.getInteger("podnuma.diff.memory.cases", 3000);
        long base = KubeletOracle.firstSeed();
        List<MemoryCase> cases =
                KubeletOracle.generate(new ArrayList<>(), base, count, new MemoryCaseGenerator()::generate);

        long t0 = System.nanoTime();
        KubeletOracle oracle =
                KubeletOracle.build(go, SOURCE, BUILD, Duration.ofSeconds(10)).workingIn(WORK);
        long t1 = System.nanoTime();
        ObjectMapper json = new ObjectMapper();
        Map<String, MemoryAnswer> kubelet =
                oracle.run(cases, MemoryCase::id, MemoryAnswer.class, MemoryAnswer::id, MemoryAnswer::hang, json);
        long t2 = System.nanoTime();
        Map<String, MemoryAnswer.Result> java =
                KubeletOracle.javaAnswers(cases, MemoryCase::id, c -> javaAnswer(c.memory()));
        long t3 = System.nanoTime();

        Map<String, Integer> allowed = new TreeMap<>();
        Map<String, Integer> coverage = new TreeMap<>();
        List<String> disagreements = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        int identical = 0;
        int comparedOps = 0;
        int identicalOps = 0;
        for (MemoryCase c : cases) {
            MemoryAnswer k = kubelet.get(c.id());
            MemoryAnswer.Result j = java.get(c.id());
            if (k.hang() || k.memory() == null) {
                disagreements.add("case " + c.id() + ": kubelet hung");
                continue;
            }
            count(coverage, c.memory(), k.memory());
            MemoryComparison.Verdict verdict = MemoryComparison.judge(c.memory(), j, k.memory());
            comparedOps += verdict.comparedOps();
            if (j.createError() == null && k.memory().createError() == null) {
                for (int op = 0; op < verdict.comparedOps(); op++) {
                    if (MemoryComparison.differences(
                                    op, j.ops().get(op), k.memory().ops().get(op))
                            .isEmpty()) {
                        identicalOps++;
                    }
                }
            }
            if (verdict.identical()) {
                identical++;
                continue;
            }
            verdict.allowed().forEach(name -> allowed.merge(name, 1, Integer::sum));
            String line = "case " + c.id() + " (rerun: -Dpodnuma.diff.memory.cases=1 -Dpodnuma.diff.seed="
                    + c.id().substring(3) + ")";
            if (verdict.unexplained().isEmpty()) {
                report.append("ALLOWED ").append(verdict.allowed()).append('\n');
            } else {
                disagreements.add(line + ": " + verdict.unexplained().getFirst());
                report.append("DISAGREEMENT\n");
                verdict.unexplained().forEach(d -> report.append("  ").append(d).append('\n'));
            }
            KubeletOracle.appendCase(report, json, line, c, j, k);
        }
        int total = cases.size();
        String summary = String.format(
                "kubelet memory manager differential: seed %d, %d cases, %d operations compared (%d identical);"
                        + " identical cases %d/%d = %.2f%%, cases with allowed differences %s, disagreements %d; go build %d ms, kubelet %d"
                        + " ms, java %d ms; coverage %s",
                base,
                total,
                comparedOps,
                identicalOps,
                identical,
                total,
                100.0 * identical / total,
                allowed,
                disagreements.size(),
                (t1 - t0) / 1_000_000,
                (t2 - t1) / 1_000_000,
                (t3 - t2) / 1_000_000,
                coverage);
        KubeletOracle.writeReport(WORK, "kubelet memory manager differential", summary, report);

        assertThat(disagreements)
                .as(
                        "cases where podnuma's Static memory policy and the kubelet's disagree (inputs and answers"
                                + " in %s)",
                        WORK.resolve("report.txt"))
                .isEmpty();
        // Guard against a vacuous run: every kind of outcome must occur often enough.
        for (String kind : List.of(
                "admitted",
                "failed",
                "multi-node blocks",
                "hugepages blocks",
                "extended",
                "preferred hints",
                "not-preferred hints",
                "removals of held memory")) {
            assertThat(coverage.getOrDefault(kind, 0)).as(kind).isGreaterThan(count / 50);
        }
        assertThat(coverage.getOrDefault("refused", 0))
                .as("refused configurations")
                .isPositive();
    }

    /** The Java engine's answer, in the oracle's terms. */
    static MemoryAnswer.Result javaAnswer(MemoryCase.Memory m) {
        StaticMemoryPolicy policy;
        try {
            List<NumaMemory> machine = new ArrayList<>();
            for (MemoryCase.Node node : m.nodes()) {
                Map<Long, Long> hugepages = new TreeMap<>();
                node.hugepages().forEach((kib, pages) -> hugepages.put(kib * 1024, kib * 1024 * pages));
                machine.add(new NumaMemory(node.id(), node.memory(), hugepages));
            }
            Map<Integer, Map<MemoryResource, Long>> reserved = new TreeMap<>();
            m.reserved().forEach((node, resources) -> {
                Map<MemoryResource, Long> parsed = new TreeMap<>();
                resources.forEach((name, bytes) -> parsed.put(MemoryResource.parse(name), bytes));
                reserved.put(node, parsed);
            });
            policy = new StaticMemoryPolicy(machine, new ReservedMemory(reserved));
        } catch (IllegalArgumentException e) {
            return MemoryAnswer.Result.refused(e.getMessage());
        }
        MemoryState state = policy.initialState();
        List<MemoryAnswer.OpResult> ops = new ArrayList<>();
        for (MemoryCase.Op op : m.ops()) {
            Map<String, List<MergeCase.Hint>> hints = null;
            Map<String, MemoryAnswer.Block> blocks = null;
            String error = null;
            switch (op.op()) {
                case "add" -> {
                    Map<MemoryResource, Long> request = new LinkedHashMap<>();
                    op.request().forEach((name, bytes) -> request.put(MemoryResource.parse(name), bytes));
                    if (op.hints()) {
                        hints = new TreeMap<>();
                        for (Map.Entry<String, List<TopologyHint>> e :
                                policy.hints(state, request).entrySet()) {
                            hints.put(
                                    e.getKey(),
                                    e.getValue().stream()
                                            .map(h -> new MergeCase.Hint(
                                                    h.numaMask().nodes(), h.preferred()))
                                            .toList());
                        }
                    }
                    NumaMask mask = op.mask() == null ? null : NumaMask.of(op.mask());
                    try {
                        state = policy.allocate(state, op.owner(), new TopologyHint(mask, op.preferred()), request);
                        blocks = new TreeMap<>();
                        for (MemoryBlock block : state.blocks(op.owner())) {
                            blocks.put(
                                    block.resource().resourceName(),
                                    new MemoryAnswer.Block(block.nodes().nodes(), block.size()));
                        }
                    } catch (MemoryAllocationException e) {
                        error = e.getMessage();
                    }
                }
                case "remove" -> state = policy.release(state, op.owner());
                default -> throw new IllegalArgumentException("unknown memory op " + op.op());
            }
            ops.add(new MemoryAnswer.OpResult(hints, blocks, error, table(state)));
        }
        return new MemoryAnswer.Result(null, table(policy.initialState()), ops);
    }

    static List<MemoryAnswer.NodeRow> table(MemoryState state) {
        List<MemoryAnswer.NodeRow> rows = new ArrayList<>();
        for (NodeMemoryState node : state.nodes().values()) {
            Map<String, MemoryAnswer.Table> memory = new TreeMap<>();
            for (Map.Entry<MemoryResource, MemoryTable> e : node.tables().entrySet()) {
                MemoryTable t = e.getValue();
                memory.put(
                        e.getKey().resourceName(),
                        new MemoryAnswer.Table(t.total(), t.systemReserved(), t.allocatable(), t.reserved(), t.free()));
            }
            rows.add(new MemoryAnswer.NodeRow(
                    node.node(), node.assignments(), node.group().nodes(), memory));
        }
        return rows;
    }

    private static void count(Map<String, Integer> coverage, MemoryCase.Memory in, MemoryAnswer.Result k) {
        if (k.createError() != null) {
            coverage.merge("refused", 1, Integer::sum);
            return;
        }
        if (in.nodes().getLast().id() >= in.nodes().size()) {
            coverage.merge("non-contiguous ids", 1, Integer::sum);
        }
        Map<String, Boolean> held = new HashMap<>();
        for (int i = 0; i < in.ops().size(); i++) {
            MemoryCase.Op op = in.ops().get(i);
            MemoryAnswer.OpResult r = k.ops().get(i);
            if ("remove".equals(op.op())) {
                if (held.remove(op.owner()) != null) {
                    coverage.merge("removals of held memory", 1, Integer::sum);
                }
                continue;
            }
            if (r.hints() != null) {
                r.hints().values().stream()
                        .findFirst()
                        .ifPresentOrElse(
                                list -> {
                                    if (list.stream().anyMatch(MergeCase.Hint::preferred)) {
                                        coverage.merge("preferred hints", 1, Integer::sum);
                                    } else {
                                        coverage.merge("not-preferred hints", 1, Integer::sum);
                                    }
                                },
                                () -> coverage.merge("no hint fits", 1, Integer::sum));
            }
            if (r.error() != null) {
                coverage.merge("failed", 1, Integer::sum);
                continue;
            }
            coverage.merge("admitted", 1, Integer::sum);
            held.put(op.owner(), true);
            MemoryAnswer.Block memory = r.blocks().get("memory");
            if (memory.mask().size() > 1) {
                coverage.merge("multi-node blocks", 1, Integer::sum);
            }
            if (r.blocks().size() > 1) {
                coverage.merge("hugepages blocks", 1, Integer::sum);
            }
            if (op.mask() != null && !memory.mask().equals(op.mask())) {
                coverage.merge("extended", 1, Integer::sum);
            }
        }
    }
}
