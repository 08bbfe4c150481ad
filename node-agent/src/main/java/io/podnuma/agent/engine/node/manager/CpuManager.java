package io.podnuma.agent.engine.node.manager;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.topology.TopologyHint;
import java.util.List;
import java.util.Optional;

/**
 * The node's CPU manager, as the kubelet's {@code cpumanager.Policy}: {@link NoneCpuManager} keeps every container
 * on the shared pool, {@link StaticCpuManager} gives exclusive CPUs.
 */
public sealed interface CpuManager permits NoneCpuManager, StaticCpuManager {

    /** Whether containers can get exclusive CPUs: the planners ask for none otherwise. */
    boolean pinsCpus();

    /** The CPUs never handed out exclusively (empty under none). */
    CpuSet reserved();

    /** The shared pool of a node without pods. */
    CpuSet initialSharedPool();

    /** The CPUs that can still become exclusive (empty under none). */
    CpuSet assignable(CpuState state);

    /**
     * The CPU manager's hints for {@code cpus} exclusive CPUs, or empty when it gives none (policy none: the
     * topology manager then merges without a CPU provider).
     */
    Optional<List<TopologyHint>> hints(CpuState state, int cpus, CpuSet reusable);

    /**
     * Gives {@code owner} {@code n} exclusive CPUs.
     *
     * @throws IllegalStateException under none, which the planners never ask
     */
    StaticPolicy.Allocation allocate(CpuState state, String owner, int n, CpuSet numaAffinity, CpuSet reusable)
            throws CpuAllocationException;

    /** Returns {@code owner}'s exclusive CPUs to the shared pool (under none: the state as it is). */
    CpuState release(CpuState state, String owner);
}
