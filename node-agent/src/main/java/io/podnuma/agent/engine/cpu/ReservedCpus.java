package io.podnuma.agent.engine.cpu;

import io.podnuma.agent.engine.cpuset.CpuSet;

/** How the reservation is given: an explicit list, or a count the allocator picks. */
public sealed interface ReservedCpus {

    record Explicit(CpuSet cpus) implements ReservedCpus {}

    /** {@code count} CPUs taken with the allocation algorithm from all CPUs: lowest cores first. */
    record Count(int count) implements ReservedCpus {}

    static ReservedCpus explicit(CpuSet cpus) {
        return new Explicit(cpus);
    }

    static ReservedCpus count(int count) {
        return new Count(count);
    }
}
