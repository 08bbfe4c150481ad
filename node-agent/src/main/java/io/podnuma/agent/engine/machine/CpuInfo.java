package io.podnuma.agent.engine.machine;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.Objects;

/**
 * Where one online logical CPU sits.
 *
 * @param cpu the logical CPU id
 * @param socket the physical package id
 * @param die the die id within the package (0 when the kernel does not report dies)
 * @param numaNode the NUMA node whose cpulist holds this CPU
 * @param core the machine-unique core id: the lowest CPU id among the core's SMT siblings (the
 *     kernel's {@code core_id} repeats across packages, so it cannot identify a core alone)
 * @param kernelCoreId the kernel's {@code core_id}, kept for display
 * @param uncoreCache the last-level (L3) cache id; the socket id when the CPU has no L3
 * @param siblings all SMT siblings of this CPU, itself included
 */
public record CpuInfo(
        int cpu, int socket, int die, int numaNode, int core, int kernelCoreId, int uncoreCache, CpuSet siblings) {

    public CpuInfo {
        Objects.requireNonNull(siblings, "siblings");
        if (!siblings.contains(cpu)) {
            throw new IllegalArgumentException("CPU " + cpu + " is missing from its own sibling list " + siblings);
        }
        if (core != siblings.first()) {
            throw new IllegalArgumentException(
                    "core id of CPU " + cpu + " must be the lowest sibling " + siblings.first() + ", was " + core);
        }
    }
}
