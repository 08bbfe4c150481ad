package io.podnuma.bench;

import io.podnuma.agent.engine.topology.TopologyAdmission;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.engine.topology.TopologyHints;
import io.podnuma.agent.engine.topology.TopologyPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The topology manager's admission with the best-effort policy, as the agent runs it (pruned merge): the
 * counterpart of the kubelet's {@code bestEffortPolicy.Merge} on the same hints. {@link #admit} takes the hints as
 * lists of {@link TopologyHint} objects, {@link #admitCompact} the same hints in the compact form
 * ({@link io.podnuma.agent.engine.topology.TopologyHints}, row {@code "<shape> [compact hints]"}); both are built
 * before the measurement, as a provider hands them over. {@link #buildCompactAndAdmit} also packs the masks into
 * the compact form in every operation (row {@code "<shape> [compact hints, built per merge]"}): what a provider
 * that writes its masks straight into {@code TopologyHints.builder()} and the merge cost together.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MergeBenchmark {

    /** Must list {@link MergeShapes#all()} (checked by a unit test). */
    @Param({
        "merge/4numa-3x15-own",
        "merge/8numa-2x255-own",
        "merge/8numa-4x255-singles",
        "merge/8numa-4x255-own",
        "merge/8numa-4x-growing",
        "merge/16numa-3x-all",
        "merge/16numa-3x-upto3",
        "merge/34numa-3x-upto3"
    })
    public String shape;

    private TopologyPolicy policy;
    private List<Map<String, List<TopologyHint>>> hints;
    private List<Map<String, List<TopologyHint>>> compactHints;
    private long[][] masks;
    private boolean[][] preferred;

    @Setup
    public void setUp() {
        MergeShape s = MergeShapes.byId(shape);
        policy = s.bestEffort();
        hints = s.providerHints();
        compactHints = s.compactProviderHints();
        masks = new long[s.providers().size()][];
        preferred = new boolean[masks.length][];
        for (int p = 0; p < masks.length; p++) {
            List<TopologyHint> list = s.providers().get(p);
            masks[p] = list.stream().mapToLong(h -> h.numaMask().bits()).toArray();
            preferred[p] = new boolean[list.size()];
            for (int i = 0; i < list.size(); i++) {
                preferred[p][i] = list.get(i).preferred();
            }
        }
    }

    @Benchmark
    public TopologyAdmission admit() {
        return policy.admit(hints);
    }

    @Benchmark
    public TopologyAdmission admitCompact() {
        return policy.admit(compactHints);
    }

    @Benchmark
    public TopologyAdmission buildCompactAndAdmit() {
        List<Map<String, List<TopologyHint>>> providers = new ArrayList<>(masks.length);
        for (int p = 0; p < masks.length; p++) {
            TopologyHints.Builder builder = TopologyHints.builder(masks[p].length);
            for (int i = 0; i < masks[p].length; i++) {
                builder.add(masks[p][i], preferred[p][i]);
            }
            providers.add(Map.of("r" + p, builder.build()));
        }
        return policy.admit(providers);
    }
}
