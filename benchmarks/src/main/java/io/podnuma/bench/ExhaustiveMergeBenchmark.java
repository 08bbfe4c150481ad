package io.podnuma.bench;

import io.podnuma.agent.engine.topology.ExhaustiveHintMerger;
import io.podnuma.agent.engine.topology.MaskOrder;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.PrunedHintMerger;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
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
 * Pruned against exhaustive merge, both called directly (no policy around them), on the shapes small enough to
 * enumerate: what the pruning saves when the JVM walks every combination like the kubelet does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ExhaustiveMergeBenchmark {

    /** Must list the shapes of {@link MergeShapes#all()} that are {@link MergeShape#exhaustiveFeasible()}. */
    @Param({"merge/4numa-3x15-own", "merge/8numa-2x255-own"})
    public String shape;

    private final ExhaustiveHintMerger exhaustive = new ExhaustiveHintMerger();
    private final PrunedHintMerger pruned = new PrunedHintMerger();
    private NumaMask nodes;
    private List<List<TopologyHint>> lists;

    @Setup
    public void setUp() {
        MergeShape s = MergeShapes.byId(shape);
        nodes = s.nodes();
        lists = s.providers();
    }

    @Benchmark
    public TopologyHint exhaustive() {
        return exhaustive.merge(nodes, lists, MaskOrder.narrowest());
    }

    @Benchmark
    public TopologyHint pruned() {
        return pruned.merge(nodes, lists, MaskOrder.narrowest());
    }
}
