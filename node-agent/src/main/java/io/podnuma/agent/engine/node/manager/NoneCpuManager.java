package io.podnuma.agent.engine.node.manager;

import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** CPU manager policy {@code none}: every online CPU is shared and no container gets one of its own. */
public record NoneCpuManager(CpuSet onlineCpus) implements CpuManager {

    public NoneCpuManager {
        Objects.requireNonNull(onlineCpus, "onlineCpus");
    }

    @Override
    public boolean pinsCpus() {
        return false;
    }

    @Override
    public CpuSet reserved() {
        return CpuSet.empty();
    }

    @Override
    public CpuSet initialSharedPool() {
        return onlineCpus;
    }

    @Override
    public CpuSet assignable(CpuState state) {
        return CpuSet.empty();
    }

    @Override
    public Optional<List<TopologyHint>> hints(CpuState state, int cpus, CpuSet reusable) {
        return Optional.empty();
    }

    @Override
    public StaticPolicy.Allocation allocate(CpuState state, String owner, int n, CpuSet numaAffinity, CpuSet reusable) {
        throw new IllegalStateException(
                "CPU manager policy none gives no exclusive CPUs (asked " + n + " for " + owner + ")");
    }

    @Override
    public CpuState release(CpuState state, String owner) {
        return state;
    }
}
