package io.podnuma.bench;

import io.podnuma.agent.engine.state.NodeState;
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

/** Admission of {@link SimulateWorkload}'s 110 pods on an empty node, end to end through the node allocator. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SimulateBenchmark {

    /** A single value, so that the report finds the row by the same id as the Go program. */
    @Param({SimulateWorkload.ID})
    public String scenario;

    private SimulateWorkload workload;

    @Setup
    public void setUp() {
        workload = new SimulateWorkload(BenchMachine.topology());
    }

    @Benchmark
    public NodeState admit110Pods() {
        return workload.run();
    }
}
