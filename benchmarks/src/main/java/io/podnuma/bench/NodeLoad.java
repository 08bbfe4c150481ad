package io.podnuma.bench;

import io.podnuma.agent.engine.cpu.CpuAllocationException;
import io.podnuma.agent.engine.cpu.CpuState;
import io.podnuma.agent.engine.cpu.StaticPolicy;
import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The pods already on the node when a benchmark allocates: 24 guaranteed pods of 2 to 16 CPUs spread over the
 * eight NUMA nodes (174 CPUs), of which every third has gone again, leaving holes as on a node that has run a
 * while. The same operations are replayed on the kubelet's policy by the Go program.
 */
public record NodeLoad(List<Op> ops) {

    /** An admission ({@code cpus > 0}, placed on {@code numaNode}) or a removal ({@code cpus == 0}). */
    public record Op(String pod, int cpus, int numaNode) {

        public boolean isAdd() {
            return cpus > 0;
        }

        public String owner() {
            return pod + "/" + CONTAINER;
        }
    }

    /** Every container of the load and of the benchmarks is called this. */
    public static final String CONTAINER = "main";

    private static final int PODS = 24;
    // five sizes over eight nodes: each node gets a different mix (16 to 26 CPUs)
    private static final int[] SIZES = {2, 4, 8, 16, 6};

    public NodeLoad {
        ops = List.copyOf(ops);
    }

    public static NodeLoad standard() {
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < PODS; i++) {
            ops.add(new Op(podName(i), SIZES[i % SIZES.length], i % 8));
        }
        for (int i = 0; i < PODS; i += 3) {
            ops.add(new Op(podName(i), 0, -1));
        }
        return new NodeLoad(ops);
    }

    private static String podName(int i) {
        return String.format("load-%02d", i);
    }

    /** Replays the load on {@code state}. */
    public CpuState applyTo(StaticPolicy policy, CpuState state) {
        CpuState s = state;
        for (Op op : ops) {
            if (!op.isAdd()) {
                s = policy.release(s, op.owner());
                continue;
            }
            try {
                s = policy.allocate(s, op.owner(), op.cpus(), CpuSet.of(op.numaNode()), CpuSet.empty())
                        .state();
            } catch (CpuAllocationException e) {
                throw new IllegalStateException(
                        "the node load does not fit this machine: " + op + ": " + e.getMessage(), e);
            }
        }
        return s;
    }
}
