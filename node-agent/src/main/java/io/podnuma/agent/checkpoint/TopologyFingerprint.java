package io.podnuma.agent.checkpoint;

import io.podnuma.agent.engine.machine.CpuInfo;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import java.util.Objects;

/**
 * Identifies the CPU layout a checkpoint was taken on, as {@code sha256:<hex>}.
 *
 * <p>It covers what assignments depend on: every online CPU with its socket, die, NUMA node, core and L3
 * group, the offline CPUs, and every NUMA node with its CPUs and distances. Memory sizes and hugepage counts
 * are left out on purpose: hugepages are re-sized at runtime and {@code MemTotal} moves with firmware and
 * kernel reservations, neither of which invalidates a CPU assignment (the allocator's validation still checks
 * memory books against the machine).
 */
public record TopologyFingerprint(String value) {

    public TopologyFingerprint {
        Objects.requireNonNull(value, "value");
        if (!Checksums.isSha256(value)) {
            throw new IllegalArgumentException(
                    "topology fingerprint \"" + value + "\" must be sha256: followed by 64 lowercase hex digits");
        }
    }

    public static TopologyFingerprint of(CpuTopology topo) {
        StringBuilder sb = new StringBuilder("cpus");
        for (CpuInfo c : topo.cpus()) {
            sb.append(';')
                    .append(c.cpu())
                    .append(':')
                    .append(c.socket())
                    .append('/')
                    .append(c.die())
                    .append('/')
                    .append(c.numaNode())
                    .append('/')
                    .append(c.core())
                    .append('/')
                    .append(c.uncoreCache());
        }
        sb.append("|offline:").append(topo.offlineCpus());
        for (NumaNode n : topo.numaNodes()) {
            sb.append("|node")
                    .append(n.id())
                    .append(':')
                    .append(n.cpus())
                    .append(':')
                    .append(n.distances());
        }
        return new TopologyFingerprint(Checksums.sha256(sb.toString()));
    }

    @Override
    public String toString() {
        return value;
    }
}
