package io.podnuma.bench;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuState;
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
 * Exclusive CPU allocation on the 384-CPU, 8-NUMA machine already carrying {@link NodeLoad#standard()}: one
 * operation admits a container with its NUMA hint and removes it again (the state is a value, so every
 * operation starts from the same loaded node).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AllocationBenchmark {

    /** Must list {@link AllocationScenario#all()} (checked by a unit test). */
    @Param({
        "alloc/none/2cpu",
        "alloc/none/4cpu",
        "alloc/none/16cpu",
        "alloc/none/64cpu",
        "alloc/full-pcpus-only/2cpu",
        "alloc/full-pcpus-only/4cpu",
        "alloc/full-pcpus-only/16cpu",
        "alloc/full-pcpus-only/64cpu",
        "alloc/full-pcpus-only+distribute-cpus-across-numa/2cpu",
        "alloc/full-pcpus-only+distribute-cpus-across-numa/4cpu",
        "alloc/full-pcpus-only+distribute-cpus-across-numa/16cpu",
        "alloc/full-pcpus-only+distribute-cpus-across-numa/64cpu"
    })
    public String scenario;

    private AllocationScenario.Prepared prepared;

    @Setup
    public void setUp() {
        prepared = AllocationScenario.byId(scenario).prepare(BenchMachine.topology(), NodeLoad.standard());
    }

    @Benchmark
    public CpuState allocateAndRelease() throws CpuAllocationException {
        return prepared.allocateAndRelease();
    }
}
