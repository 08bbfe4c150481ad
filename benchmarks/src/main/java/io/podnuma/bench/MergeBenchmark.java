package io.podnuma.bench;

import io.podnuma.agent.engine.topology.TopologyAdmission;
import io.podnuma.agent.engine.topology.TopologyHint;
import io.podnuma.agent.engine.topology.TopologyPolicy;
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
 * before the measurement, as a provider hands them over.
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

    @Setup
    public void setUp() {
        MergeShape s = MergeShapes.byId(shape);
        policy = s.bestEffort();
        hints = s.providerHints();
        compactHints = s.compactProviderHints();
    }

    @Benchmark
    public TopologyAdmission admit() {
        return policy.admit(hints);
    }

    @Benchmark
    public TopologyAdmission admitCompact() {
        return policy.admit(compactHints);
    }
}
