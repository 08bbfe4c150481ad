package io.podnuma.agent.runtime.core;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.Objects;

/** A container cgroup's {@code cpuset.cpus} and {@code cpuset.mems}. */
public record Pin(CpuSet cpus, CpuSet mems) {

    public Pin {
        Objects.requireNonNull(cpus, "cpus");
        Objects.requireNonNull(mems, "mems");
    }

    /** This pin without CPUs or memory nodes that {@code other} does not have (never empty: keeps this instead). */
    public Pin narrowedTo(Pin other) {
        CpuSet c = cpus.intersection(other.cpus);
        CpuSet m = mems.intersection(other.mems);
        return new Pin(c.isEmpty() ? cpus : c, m.isEmpty() ? mems : m);
    }

    @Override
    public String toString() {
        return "cpus " + cpus + " mems " + mems;
    }
}
