package io.podnuma.agent.engine.node;

import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpu.StaticPolicyOptions;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.TestTopologies;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.memory.ReservedMemory;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.Resources;
import io.podnuma.agent.engine.pod.TestPods;
import io.podnuma.agent.engine.topology.TopologyManagerOptions;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

/** Random node configurations and pods for the property tests. */
public final class RandomScenarios {

    private RandomScenarios() {}

    public static NodeConfig config(Random rnd, CpuTopology topo) {
        TopologyPolicyName policy = TopologyPolicyName.values()[rnd.nextInt(TopologyPolicyName.values().length)];
        boolean fullPcpus = rnd.nextInt(4) == 0;
        boolean strict = rnd.nextInt(4) == 0;
        boolean distributeNuma = !fullPcpus && rnd.nextInt(6) == 0;
        StaticPolicyOptions options = new StaticPolicyOptions(fullPcpus, distributeNuma, false, false, strict, false);
        int reserved = topo.cpusPerCore() * (1 + rnd.nextInt(2));
        Map<Integer, Map<MemoryResource, Long>> reservedMemory = new TreeMap<>();
        topo.numaNodes().forEach(n -> reservedMemory.put(n.id(), Map.of(MemoryResource.MEMORY, 1L << 30)));
        return new NodeConfig(
                NodeConfig.CpuPolicy.STATIC,
                ReservedCpus.count(Math.min(reserved, topo.numCpus() - 1)),
                options,
                rnd.nextBoolean() ? NodeConfig.MemoryPolicy.STATIC : NodeConfig.MemoryPolicy.NONE,
                new ReservedMemory(reservedMemory),
                policy,
                rnd.nextBoolean() ? NodeConfig.TopologyScope.POD : NodeConfig.TopologyScope.CONTAINER,
                TopologyManagerOptions.defaults(),
                rnd.nextInt(5) > 0);
    }

    /** One random machine of {@link #machines}: its allocator carries its topology and configuration. */
    public record Machine(int index, NodeAllocator allocator) {

        public CpuTopology topology() {
            return allocator.topology();
        }

        public NodeConfig config() {
            return allocator.config();
        }
    }

    /** {@link #machines(Random, int, Function)} on random topologies, one in four with SMT. */
    public static Iterable<Machine> machines(Random rnd, int count) {
        return machines(rnd, count, r -> TestTopologies.random(r, r.nextInt(4) == 0));
    }

    /**
     * Up to {@code count} random machines, each a topology from {@code topologies} with a random configuration,
     * drawn from {@code rnd} one at a time as the loop asks (so the draws interleave with the loop body's, and a
     * seed replays both). A configuration the machine cannot give (a reservation or option) is skipped; its index
     * is not reused.
     */
    public static Iterable<Machine> machines(Random rnd, int count, Function<Random, CpuTopology> topologies) {
        return () -> new Iterator<>() {
            private int drawn;
            private Machine next;

            @Override
            public boolean hasNext() {
                while (next == null && drawn < count) {
                    int index = drawn++;
                    CpuTopology topo = topologies.apply(rnd);
                    NodeConfig config = config(rnd, topo);
                    try {
                        next = new Machine(index, NodeAllocator.create(topo, config));
                    } catch (IllegalArgumentException e) {
                        // skipped: this machine cannot give this configuration
                    }
                }
                return next != null;
            }

            @Override
            public Machine next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Machine m = next;
                next = null;
                return m;
            }
        };
    }

    /** A pod with 0-2 init containers, 0-2 sidecars, 1-3 app containers, maybe an ephemeral one and a budget. */
    public static Pod pod(Random rnd, String name, int maxCpus) {
        TestPods.Builder b = TestPods.pod(name);
        boolean budget = rnd.nextBoolean();
        int budgetCpus = 1 + rnd.nextInt(Math.max(1, maxCpus));
        if (budget) {
            if (rnd.nextInt(6) == 0) {
                b.budget(new Resources(
                        TestPods.list(budgetCpus + "", "1Gi"), TestPods.list((budgetCpus + 1) + "", "2Gi")));
            } else {
                b.budget(rnd.nextInt(8) == 0 ? budgetCpus + "500m" : budgetCpus + "", (1 + rnd.nextInt(4)) + "Gi");
            }
        }
        int inits = rnd.nextInt(3);
        int sidecars = rnd.nextInt(3);
        int apps = 1 + rnd.nextInt(3);
        int k = 0;
        for (int i = 0; i < inits + sidecars; i++) {
            boolean sidecar = rnd.nextInt(inits + sidecars) < sidecars;
            String[] r = containerResources(rnd, maxCpus);
            if (sidecar) {
                b.sidecar("c" + k++, r[0], r[1]);
            } else {
                b.init("c" + k++, r[0], r[1]);
            }
        }
        for (int i = 0; i < apps; i++) {
            String[] r = containerResources(rnd, maxCpus);
            b.app("c" + k++, r[0], r[1]);
        }
        if (rnd.nextInt(4) == 0) {
            b.ephemeral("debug");
        }
        return b.build();
    }

    private static String[] containerResources(Random rnd, int maxCpus) {
        return switch (rnd.nextInt(5)) {
            case 0 -> new String[] {null, null};
            case 1 -> new String[] {(100 * (1 + rnd.nextInt(9))) + "m", "256Mi"};
            default ->
                new String[] {
                    Integer.toString(1 + rnd.nextInt(Math.max(1, maxCpus / 2))), (256 * (1 + rnd.nextInt(4))) + "Mi"
                };
        };
    }
}
