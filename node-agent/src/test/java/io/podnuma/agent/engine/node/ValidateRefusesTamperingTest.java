package io.podnuma.agent.engine.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.agent.testing.Seeds;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Detection: states the engine produced (random machines, configurations, admissions and pod removals), each
 * with one field of one pod tampered, as a hand edit with a recomputed checksum would do. {@link
 * NodeAllocator#validate} must refuse each mutant with a message naming the pod and the field, unless the mutant
 * is itself a state the engine can produce; such mutants are recognised by a stated reason (see {@link
 * #engineCanProduce}) and not counted as refused. A mutant the record types cannot even hold (the decoder
 * refuses it) is counted apart. Seeded: the seed is printed, {@code -Dpodnuma.seed=N} replays it.
 */
class ValidateRefusesTamperingTest {

    private static final int MACHINES = Integer.getInteger("podnuma.machines", 300);
    private static final int STEPS = 20;
    private static final Pattern FIELD = Pattern.compile("(?:^|: )([A-Za-z]+)(\\[\\d+\\])?(\\.[A-Za-z]+)? is ");

    /** One field of one pod. */
    enum Tamper {
        KIND,
        CPUS,
        POD_SHARED_POOL,
        BUBBLE,
        MEMORY_NODES,
        AFFINITY,
        NUMA_ID,
        QOS,
        PLACEMENT
    }

    /** A tampered pod, what changed, and the fields a refusal may name for it. */
    private record Mutant(PodAssignment before, PodAssignment after, String change, Set<String> fields) {}

    private static final class Tally {
        int tried;
        int refused;
        int unrepresentable;
        final Map<String, Integer> valid = new TreeMap<>();
        final Map<String, Integer> namedFields = new TreeMap<>();

        @Override
        public String toString() {
            return "tried " + tried + ", refused " + refused + " (naming " + namedFields + "), valid states "
                    + valid.values().stream().mapToInt(Integer::intValue).sum() + " " + valid
                    + ", not representable " + unrepresentable;
        }
    }

    @Test
    void singleFieldTamperingIsRefusedNamingTheField() {
        long seed = Seeds.announce(getClass().getSimpleName());
        Random rnd = new Random(seed);
        Map<Tamper, Tally> tallies = new EnumMap<>(Tamper.class);
        for (Tamper t : Tamper.values()) {
            tallies.put(t, new Tally());
        }
        for (RandomScenarios.Machine m : RandomScenarios.machines(rnd, MACHINES)) {
            int machine = m.index();
            CpuTopology topo = m.topology();
            NodeAllocator allocator = m.allocator();
            NodeState state = allocator.initialState();
            int maxCpus = Math.max(2, topo.numCpus() / 3);
            for (int step = 0; step < STEPS; step++) {
                // Admissions and pod removals only: container removals leave slices no entry names, which
                // makes more mutants valid states (the no-false-positive test covers them).
                if (rnd.nextInt(10) < 8 || state.pods().isEmpty()) {
                    Pod pod = RandomScenarios.pod(rnd, "p" + step, maxCpus);
                    if (allocator.admit(state, pod) instanceof AdmissionResult.Admitted a) {
                        state = a.state();
                    }
                } else {
                    List<String> uids = new ArrayList<>(state.pods().keySet());
                    state = allocator.remove(state, uids.get(rnd.nextInt(uids.size())));
                }
                if (state.pods().isEmpty()) {
                    continue;
                }
                for (Tamper t : Tamper.values()) {
                    String context = "seed " + seed + " machine " + machine + " step " + step + " " + t;
                    judge(allocator, state, t, rnd, tallies.get(t), context);
                }
            }
        }
        for (Map.Entry<Tamper, Tally> e : tallies.entrySet()) {
            System.out.println(getClass().getSimpleName() + " " + e.getKey() + ": " + e.getValue());
        }
        for (Map.Entry<Tamper, Tally> e : tallies.entrySet()) {
            assertThat(e.getValue().refused)
                    .as("%s: enough mutants refused to mean something", e.getKey())
                    .isGreaterThan(50);
        }
    }

    private static void judge(NodeAllocator allocator, NodeState state, Tamper t, Random rnd, Tally tally, String ctx) {
        List<PodAssignment> pods = new ArrayList<>(state.pods().values());
        PodAssignment pod = pods.get(rnd.nextInt(pods.size()));
        Optional<Mutant> made;
        try {
            made = tamper(t, rnd, allocator, state, pod);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // The record types refuse it: the checkpoint decoder never builds such a state.
            tally.tried++;
            tally.unrepresentable++;
            return;
        }
        if (made.isEmpty() || made.get().after().equals(pod)) {
            return;
        }
        Mutant m = made.get();
        NodeState tampered = state.withPod(state.sharedPool(), m.after());
        tally.tried++;
        try {
            allocator.validate(tampered);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            var matcher = FIELD.matcher(message);
            String field = matcher.find() ? matcher.group(1) + (matcher.group(3) == null ? "" : matcher.group(3)) : "?";
            boolean named = m.fields().stream()
                    .anyMatch(f ->
                            Pattern.compile("\\b" + f + "\\b").matcher(message).find());
            if (!named) {
                fail("%s: %s refused, but the message names none of %s: %s", ctx, m.change(), m.fields(), message);
            }
            if (!field.equals("sharedPool") && !message.contains(pod.ref().uid())) {
                fail("%s: %s refused, but the message does not name the pod: %s", ctx, m.change(), message);
            }
            tally.refused++;
            tally.namedFields.merge(field, 1, Integer::sum);
            return;
        }
        String reason = engineCanProduce(t, allocator, m.before(), m.after());
        if (reason == null) {
            fail(
                    "%s: %s was accepted, but the engine cannot produce it%nbefore: %s%nafter:  %s",
                    ctx, m.change(), m.before(), m.after());
        }
        tally.valid.merge(reason, 1, Integer::sum);
    }

    // ---- the tampering ----

    private static Optional<Mutant> tamper(
            Tamper t, Random rnd, NodeAllocator allocator, NodeState state, PodAssignment p) {
        CpuTopology topo = allocator.topology();
        NumaMask nodes = machineNodes(topo);
        return switch (t) {
            case KIND -> {
                int i = rnd.nextInt(p.containers().size());
                ContainerAssignment c = p.containers().get(i);
                AssignmentKind[] others = otherKinds(c.kind());
                AssignmentKind k = others[rnd.nextInt(others.length)];
                CpuSet cpus = switch (k) {
                    case NODE_SHARED -> CpuSet.empty();
                    case POD_SHARED ->
                        firstNonEmpty(p.podSharedPool(), p.bubble(), c.cpus(), oneOf(rnd, topo.onlineCpus()));
                    case EXCLUSIVE ->
                        firstNonEmpty(
                                c.cpus(),
                                oneOf(rnd, p.bubble()),
                                oneOf(rnd, state.sharedPool().difference(allocator.reservedCpus())),
                                oneOf(rnd, topo.onlineCpus()));
                };
                yield Optional.of(new Mutant(
                        p,
                        withContainer(p, i, container(c, k, cpus, c.memoryNodes())),
                        "container " + c.name() + " kind " + c.kind().wireName() + " -> " + k.wireName() + " on \""
                                + cpus + "\"",
                        Set.of("kind", "cpus", "sharedPool")));
            }
            case CPUS -> {
                List<Integer> withCpus = indexes(p, c -> !c.cpus().isEmpty());
                if (withCpus.isEmpty()) {
                    yield Optional.empty();
                }
                int i = withCpus.get(rnd.nextInt(withCpus.size()));
                ContainerAssignment c = p.containers().get(i);
                CpuSet pickFrom = (p.hasBubble() ? p.bubble() : topo.onlineCpus()).difference(c.cpus());
                CpuSet cpus = switch (rnd.nextInt(3)) {
                    case 0 -> c.cpus().union(oneOf(rnd, pickFrom));
                    case 1 -> c.cpus().size() > 1 ? c.cpus().difference(oneOf(rnd, c.cpus())) : c.cpus();
                    default -> c.cpus().difference(oneOf(rnd, c.cpus())).union(oneOf(rnd, pickFrom));
                };
                if (cpus.isEmpty()) {
                    yield Optional.empty();
                }
                yield Optional.of(new Mutant(
                        p,
                        withContainer(p, i, container(c, c.kind(), cpus, c.memoryNodes())),
                        "container " + c.name() + " cpus \"" + c.cpus() + "\" -> \"" + cpus + "\"",
                        Set.of("cpus", "sharedPool")));
            }
            case POD_SHARED_POOL -> {
                if (!p.hasBubble()) {
                    yield Optional.empty();
                }
                CpuSet outside = p.bubble().difference(p.podSharedPool());
                CpuSet pool = rnd.nextBoolean() && !outside.isEmpty()
                        ? p.podSharedPool().union(oneOf(rnd, outside))
                        : p.podSharedPool().difference(oneOf(rnd, p.podSharedPool()));
                yield Optional.of(new Mutant(
                        p,
                        pod(p, p.qos(), p.placement(), p.numaAffinity(), p.bubble(), pool),
                        "podSharedPool \"" + p.podSharedPool() + "\" -> \"" + pool + "\"",
                        Set.of("podSharedPool", "cpus")));
            }
            case BUBBLE -> {
                if (!p.hasBubble()) {
                    yield Optional.empty();
                }
                CpuSet bubble = rnd.nextBoolean()
                        ? p.bubble().union(oneOf(rnd, topo.onlineCpus().difference(p.bubble())))
                        : p.bubble().difference(oneOf(rnd, p.bubble()));
                yield Optional.of(new Mutant(
                        p,
                        pod(p, p.qos(), p.placement(), p.numaAffinity(), bubble, p.podSharedPool()),
                        "bubble \"" + p.bubble() + "\" -> \"" + bubble + "\"",
                        Set.of("bubble", "sharedPool")));
            }
            case MEMORY_NODES -> {
                int i = rnd.nextInt(p.containers().size());
                ContainerAssignment c = p.containers().get(i);
                NumaMask mask = otherMask(rnd, nodes, c.memoryNodes());
                if (mask == null) {
                    yield Optional.empty();
                }
                yield Optional.of(new Mutant(
                        p,
                        withContainer(p, i, container(c, c.kind(), c.cpus(), mask)),
                        "container " + c.name() + " memoryNodes " + c.memoryNodes() + " -> " + mask,
                        Set.of("memoryNodes")));
            }
            case AFFINITY -> {
                NumaMask cpuNodes =
                        NumaMask.of(topo.numaNodesOf(p.exclusiveCpus()).toArray());
                NumaMask mask = null;
                for (int attempt = 0; attempt < 8 && mask == null; attempt++) {
                    NumaMask candidate = otherMask(rnd, nodes, p.numaAffinity());
                    if (candidate != null
                            && !candidate.isEmpty()
                            && (cpuNodes.isEmpty() || !cpuNodes.isSubsetOf(candidate))) {
                        mask = candidate;
                    }
                }
                if (mask == null) {
                    yield Optional.empty();
                }
                yield Optional.of(new Mutant(
                        p,
                        pod(p, p.qos(), p.placement(), mask, p.bubble(), p.podSharedPool()),
                        "numaAffinity " + p.numaAffinity() + " -> " + mask + " (CPUs on " + cpuNodes + ")",
                        Set.of("numaAffinity")));
            }
            case NUMA_ID -> {
                int missing = Math.min(63, nodes.toArray()[nodes.count() - 1] + 1 + rnd.nextInt(3));
                NumaMask bogus = NumaMask.of(missing);
                int i = rnd.nextInt(p.containers().size());
                ContainerAssignment c = p.containers().get(i);
                Mutant memoryNodesMutant = new Mutant(
                        p,
                        withContainer(
                                p,
                                i,
                                container(c, c.kind(), c.cpus(), c.memoryNodes().or(bogus))),
                        "container " + c.name() + " memoryNodes + node " + missing,
                        Set.of("memoryNodes"));
                yield Optional.of(
                        switch (rnd.nextInt(3)) {
                            case 0 ->
                                new Mutant(
                                        p,
                                        pod(
                                                p,
                                                p.qos(),
                                                p.placement(),
                                                p.numaAffinity().or(bogus),
                                                p.bubble(),
                                                p.podSharedPool()),
                                        "numaAffinity + node " + missing,
                                        Set.of("numaAffinity"));
                            case 1 -> memoryNodesMutant;
                            default -> {
                                List<MemoryBlock> blocks = c.memory().isEmpty() ? p.podMemory() : c.memory();
                                if (blocks.isEmpty()) {
                                    yield memoryNodesMutant;
                                }
                                MemoryBlock b = blocks.get(0);
                                MemoryBlock moved = new MemoryBlock(
                                        b.resource(), b.size(), b.nodes().or(bogus), b.charged());
                                List<MemoryBlock> changed = new ArrayList<>(blocks);
                                changed.set(0, moved);
                                PodAssignment after = c.memory().isEmpty()
                                        ? new PodAssignment(
                                                p.ref(),
                                                p.qos(),
                                                p.placement(),
                                                p.numaAffinity(),
                                                p.bubble(),
                                                p.podSharedPool(),
                                                changed,
                                                p.containers())
                                        : withContainer(
                                                p,
                                                i,
                                                new ContainerAssignment(
                                                        c.name(),
                                                        c.type(),
                                                        c.kind(),
                                                        c.cpus(),
                                                        changed,
                                                        c.memoryNodes()));
                                yield new Mutant(
                                        p,
                                        after,
                                        (c.memory().isEmpty() ? "pod" : "container " + c.name())
                                                + " memory[0].numaNodes + node " + missing,
                                        Set.of("numaNodes"));
                            }
                        });
            }
            case QOS -> {
                if (p.qos() != PodQos.GUARANTEED) {
                    yield Optional.empty();
                }
                PodQos qos = rnd.nextBoolean() ? PodQos.BURSTABLE : PodQos.BEST_EFFORT;
                yield Optional.of(new Mutant(
                        p,
                        pod(p, qos, p.placement(), p.numaAffinity(), p.bubble(), p.podSharedPool()),
                        "qos Guaranteed -> " + qos.wireName(),
                        Set.of("qos")));
            }
            case PLACEMENT -> {
                List<PodPlacement> others = new ArrayList<>(List.of(PodPlacement.values()));
                others.remove(p.placement());
                PodPlacement placement = others.get(rnd.nextInt(others.size()));
                yield Optional.of(new Mutant(
                        p,
                        pod(p, p.qos(), placement, p.numaAffinity(), p.bubble(), p.podSharedPool()),
                        "placement " + p.placement().wireName() + " -> " + placement.wireName(),
                        Set.of("placement", "pod-level")));
            }
        };
    }

    // ---- mutants the engine can produce too ----

    /**
     * Why an accepted mutant is a state the engine can produce, or null when it cannot (a missed detection). The
     * state does not record the pod spec, nor the entries of removed containers, so some single-field changes
     * describe another pod or another history just as well.
     */
    static String engineCanProduce(Tamper t, NodeAllocator allocator, PodAssignment before, PodAssignment after) {
        if ((t == Tamper.QOS || t == Tamper.PLACEMENT) && !pins(after)) {
            return "the pod pins nothing, which every QoS class and placement can give";
        }
        if (t == Tamper.PLACEMENT
                && before.numaAffinity().isEmpty()
                && Set.of(PodPlacement.POD, PodPlacement.CONTAINER).contains(after.placement())
                && before.placement() != PodPlacement.POD_LEVEL
                && (allocator.config().topologyPolicy() == TopologyPolicyName.NONE
                        || allocator.topology().numNumaNodes() == 1)) {
            return "without a NUMA choice (policy none or one NUMA node) pod and container scope place alike";
        }
        if (t == Tamper.AFFINITY && !after.numaAffinity().isEmpty()) {
            TopologyPolicyName policy = allocator.config().topologyPolicy();
            boolean memoryCovers =
                    memoryNodes(after).isEmpty() || after.numaAffinity().isSubsetOf(memoryNodes(after));
            if (policy == TopologyPolicyName.BEST_EFFORT && memoryCovers) {
                return "best-effort takes CPUs outside the hint; the memory still covers it";
            }
            if (policy != TopologyPolicyName.NONE
                    && !pins(after)
                    && (policy != TopologyPolicyName.SINGLE_NUMA_NODE
                            || after.numaAffinity().count() == 1)) {
                return "a pod that pins nothing may have lost its pinned containers' entries and kept their hint";
            }
        }
        int changed = changedContainer(before, after);
        if (changed >= 0 && (t == Tamper.KIND || t == Tamper.CPUS)) {
            ContainerAssignment was = before.containers().get(changed);
            ContainerAssignment now = after.containers().get(changed);
            if (before.hasBubble()) {
                CpuSet available = before.bubble().difference(sidecarSlicesBefore(before, changed));
                if (was.type() == ContainerType.INIT && now.cpus().isSubsetOf(available)) {
                    return "a standard init container takes a slice of, or all of, the bubble left by the sidecars"
                            + " before it, by its own request";
                }
                if (was.type().longRunning()
                        && now.kind() == AssignmentKind.POD_SHARED
                        && now.cpus().equals(before.podSharedPool())) {
                    return "a long-running container on the pod pool, its former slice like a removed container's";
                }
                if (was.type().longRunning()
                        && now.kind() == AssignmentKind.EXCLUSIVE
                        && was.kind() == AssignmentKind.EXCLUSIVE
                        && now.cpus().difference(was.cpus()).isSubsetOf(dead(before))) {
                    return "a long-running slice gives CPUs to, or takes CPUs of, removed containers' slices";
                }
            } else {
                CpuSet others = otherContainersCpus(before, changed);
                CpuSet moved = symmetricDifference(was.cpus(), now.cpus());
                if (!moved.isEmpty() && moved.isSubsetOf(others)) {
                    return "the CPUs that changed hands are held by another container of the pod too (init reuse),"
                            + " so the node's books are the same";
                }
            }
        }
        if (t == Tamper.POD_SHARED_POOL) {
            boolean poolUsed = after.containers().stream()
                    .anyMatch(c -> c.type().longRunning() && c.kind() == AssignmentKind.POD_SHARED);
            CpuSet moved = symmetricDifference(before.podSharedPool(), after.podSharedPool());
            if (!poolUsed && moved.isSubsetOf(dead(before).union(before.podSharedPool()))) {
                return "a pool nobody long-running uses gives CPUs to, or takes CPUs of, removed containers' slices";
            }
        }
        return null;
    }

    // ---- helpers ----

    private static boolean pins(PodAssignment p) {
        return p.hasBubble()
                || !p.podMemory().isEmpty()
                || p.containers().stream()
                        .anyMatch(c -> c.kind() != AssignmentKind.NODE_SHARED
                                || !c.memory().isEmpty()
                                || !c.memoryNodes().isEmpty());
    }

    private static NumaMask memoryNodes(PodAssignment p) {
        NumaMask mask = NumaMask.empty();
        for (MemoryBlock b : p.podMemory()) {
            mask = mask.or(b.nodes());
        }
        for (ContainerAssignment c : p.containers()) {
            mask = mask.or(c.memoryNodes());
        }
        return mask;
    }

    /** Bubble CPUs that neither the pool nor a long-running slice holds: slices of removed containers. */
    private static CpuSet dead(PodAssignment p) {
        CpuSet dead = p.bubble().difference(p.podSharedPool());
        for (ContainerAssignment c : p.containers()) {
            if (c.type().longRunning() && c.kind() == AssignmentKind.EXCLUSIVE) {
                dead = dead.difference(c.cpus());
            }
        }
        return dead;
    }

    private static CpuSet sidecarSlicesBefore(PodAssignment p, int index) {
        CpuSet sidecars = CpuSet.empty();
        for (int i = 0; i < index; i++) {
            ContainerAssignment c = p.containers().get(i);
            if (c.type() == ContainerType.SIDECAR && c.kind() == AssignmentKind.EXCLUSIVE) {
                sidecars = sidecars.union(c.cpus());
            }
        }
        return sidecars;
    }

    private static CpuSet otherContainersCpus(PodAssignment p, int index) {
        CpuSet cpus = CpuSet.empty();
        for (int i = 0; i < p.containers().size(); i++) {
            if (i != index && p.containers().get(i).kind() == AssignmentKind.EXCLUSIVE) {
                cpus = cpus.union(p.containers().get(i).cpus());
            }
        }
        return cpus;
    }

    private static int changedContainer(PodAssignment before, PodAssignment after) {
        for (int i = 0; i < before.containers().size(); i++) {
            if (!before.containers().get(i).equals(after.containers().get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static CpuSet symmetricDifference(CpuSet a, CpuSet b) {
        return a.difference(b).union(b.difference(a));
    }

    private static NumaMask machineNodes(CpuTopology topo) {
        return NumaMask.of(topo.numaNodes().stream().map(n -> n.id()).toList());
    }

    /** A different subset of the machine's nodes (possibly empty), or null when there is none. */
    private static NumaMask otherMask(Random rnd, NumaMask nodes, NumaMask current) {
        int[] ids = nodes.toArray();
        for (int attempt = 0; attempt < 8; attempt++) {
            List<Integer> chosen = new ArrayList<>();
            for (int id : ids) {
                if (rnd.nextBoolean()) {
                    chosen.add(id);
                }
            }
            NumaMask mask = NumaMask.of(chosen);
            if (!mask.equals(current)) {
                return mask;
            }
        }
        return null;
    }

    private static AssignmentKind[] otherKinds(AssignmentKind k) {
        return java.util.Arrays.stream(AssignmentKind.values())
                .filter(o -> o != k)
                .toArray(AssignmentKind[]::new);
    }

    private static CpuSet oneOf(Random rnd, CpuSet cpus) {
        if (cpus.isEmpty()) {
            return CpuSet.empty();
        }
        int[] ids = cpus.toArray();
        return CpuSet.of(ids[rnd.nextInt(ids.length)]);
    }

    private static CpuSet firstNonEmpty(CpuSet... sets) {
        for (CpuSet s : sets) {
            if (!s.isEmpty()) {
                return s;
            }
        }
        return CpuSet.empty();
    }

    private static List<Integer> indexes(PodAssignment p, java.util.function.Predicate<ContainerAssignment> test) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < p.containers().size(); i++) {
            if (test.test(p.containers().get(i))) {
                out.add(i);
            }
        }
        return out;
    }

    private static ContainerAssignment container(
            ContainerAssignment c, AssignmentKind kind, CpuSet cpus, NumaMask memoryNodes) {
        return new ContainerAssignment(c.name(), c.type(), kind, cpus, c.memory(), memoryNodes);
    }

    private static PodAssignment withContainer(PodAssignment p, int index, ContainerAssignment c) {
        List<ContainerAssignment> cs = new ArrayList<>(p.containers());
        cs.set(index, c);
        return new PodAssignment(
                p.ref(), p.qos(), p.placement(), p.numaAffinity(), p.bubble(), p.podSharedPool(), p.podMemory(), cs);
    }

    private static PodAssignment pod(
            PodAssignment p, PodQos qos, PodPlacement placement, NumaMask affinity, CpuSet bubble, CpuSet pool) {
        return new PodAssignment(p.ref(), qos, placement, affinity, bubble, pool, p.podMemory(), p.containers());
    }
}
