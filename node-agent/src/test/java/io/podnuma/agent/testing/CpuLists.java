package io.podnuma.agent.testing;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.testkit.cpu.CpuList;

/**
 * Between the agent's {@link CpuSet} and the test kit's {@link CpuList}: what the agent decided (a checkpoint, an
 * expectation written in the agent's terms) compared with what the kit read from the kernel with its own parser.
 */
public final class CpuLists {

    private CpuLists() {}

    public static CpuList of(CpuSet cpus) {
        return CpuList.parse(cpus.toString());
    }

    public static CpuSet toCpuSet(CpuList cpus) {
        return CpuSet.parse(cpus.toString());
    }
}
