package io.podnuma.agent.engine.node.manager;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuHintAdapter;
import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** CPU manager policy {@code static}: exclusive CPUs from {@link StaticPolicy}, its hints as the topology's. */
public record StaticCpuManager(StaticPolicy policy) implements CpuManager {

    public StaticCpuManager {
        Objects.requireNonNull(policy, "policy");
    }

    @Override
    public boolean pinsCpus() {
        return true;
    }

    @Override
    public CpuSet reserved() {
        return policy.reserved();
    }

    @Override
    public CpuSet initialSharedPool() {
        return policy.initialState().defaultSet();
    }

    @Override
    public CpuSet assignable(CpuState state) {
        return policy.assignable(state);
    }

    @Override
    public Optional<List<TopologyHint>> hints(CpuState state, int cpus, CpuSet reusable) {
        return Optional.of(CpuHintAdapter.toTopologyHints(policy.hints(state, cpus, reusable)));
    }

    @Override
    public StaticPolicy.Allocation allocate(CpuState state, String owner, int n, CpuSet numaAffinity, CpuSet reusable)
            throws CpuAllocationException {
        return policy.allocate(state, owner, n, numaAffinity, reusable);
    }

    @Override
    public CpuState release(CpuState state, String owner) {
        return policy.release(state, owner);
    }
}
