package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime under random churn with in-memory pods and cgroups (a 2-socket machine with SMT from the sysfs
 * fixtures): pods come and go, containers appear before or after their status names them, someone rewrites
 * cpusets, writes fail. After every step without failures (and after the reconcile that follows a step with
 * failures), no CPU that the node state gives one owner exclusively is held both by that owner and by anyone else;
 * at the end every container has exactly what the state says. Seeded: the seed is printed, {@code -Dpodnuma.seed} replays it.
 */
class NodeAgentChurnTest {

    static final Path SYSFS = Path.of("src/test/resources/sysfs/intel-2s-ht");

    @TempDir
    Path stateDir;

    private final List<NodeAgent> agents = new ArrayList<>();

    @AfterEach
    void close() {
        agents.forEach(NodeAgent::close);
    }

    /** Pods as the API server has them, told to the agent's listener. */
    static final class FakePods implements PodSource {
        final Map<String, Pod> pods = new LinkedHashMap<>();
        Listener listener;

        @Override
        public void start(Listener l) {
            listener = l;
        }

        @Override
        public boolean awaitSynced(Duration timeout) {
            return true;
        }

        @Override
        public synchronized List<Pod> list() {
            return List.copyOf(pods.values());
        }

        synchronized void put(Pod p) {
            pods.put(p.getMetadata().getUid(), p);
            if (listener != null) {
                listener.changed(p);
            }
        }

        synchronized void remove(Pod p) {
            pods.remove(p.getMetadata().getUid());
            if (listener != null) {
                listener.deleted(p);
            }
        }

        @Override
        public void close() {}
    }

    /** Container cgroups with their cpusets; a write may be made to fail. */
    static final class FakeCgroups implements PinWriter {
        final Map<CgroupPath, Pin> actual = new ConcurrentHashMap<>();
        final Map<CgroupPath, Boolean> touched = new ConcurrentHashMap<>();
        volatile double failureRate;
        /** Containers whose every write fails. */
        final java.util.Set<CgroupPath> failing = ConcurrentHashMap.newKeySet();

        final Random rnd;
        int failures;

        FakeCgroups(Random rnd) {
            this.rnd = rnd;
        }

        @Override
        public synchronized boolean apply(CgroupPath container, Pin pin) throws CgroupWriteException {
            if (!actual.containsKey(container)) {
                throw new CgroupWriteException(Path.of("/" + container), container + " does not exist");
            }
            if (failing.contains(container) || failureRate > 0 && rnd.nextDouble() < failureRate) {
                failures++;
                throw new CgroupWriteException(Path.of("/" + container), "injected failure");
            }
            boolean changed = !pin.equals(actual.put(container, pin));
            touched.put(container, true);
            return changed;
        }

        @Override
        public Optional<Pin> read(CgroupPath container) {
            return Optional.ofNullable(actual.get(container));
        }

        @Override
        public void removeQuota(CgroupPath container) {}
    }

    record Running(Pod pod, String container, ContainerCgroup cgroup, CgroupPath path) {}

    @Test
    void exclusiveCpusAreNeverHeldTwiceAndEverythingConverges() throws Exception {
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println("NodeAgentChurnTest seed " + seed + " (replay with -Dpodnuma.seed=" + seed + ")");
        Random rnd = new Random(seed);
        CpuTopology topo = new SysfsTopologyReader(SYSFS).read();
        AgentConfig config = InMemoryAgent.podScopeConfig("churn", SampleConfigs.reservedCpuCount(2));
        NodeAllocator allocator = NodeAllocator.create(topo, config.nodeConfig());
        CgroupNaming naming = new CgroupNaming(CgroupDriver.SYSTEMD);
        FakePods pods = new FakePods();
        FakeCgroups cgroups = new FakeCgroups(rnd);
        Map<CgroupPath, Running> running = new HashMap<>();
        NodeAgent agent = new InMemoryAgent(
                        "churn",
                        topo,
                        config,
                        naming,
                        cgroups,
                        () -> running.values().stream()
                                .map(r -> new NodeAgent.Found(r.cgroup(), r.path()))
                                .toList(),
                        stateDir,
                        pods)
                .build();
        agents.add(agent);
        agent.start();
        assertThat(agent.awaitReady(Duration.ofSeconds(10))).isTrue();

        Pin all = new Pin(topo.onlineCpus(), allMems(topo));
        int created = 0;
        int checks = 0;
        for (int step = 0; step < 400; step++) {
            String where = "seed " + seed + " step " + step;
            if (cgroups.failureRate > 0) {
                // Writes work again: one reconcile (the retry the agent schedules itself) restores exclusivity.
                cgroups.failureRate = 0;
                agent.reconcileNow();
                assertExclusive(agent.state(), running, cgroups, where + " (after recovery)");
            }
            cgroups.failureRate = rnd.nextInt(5) == 0 ? 0.3 : 0;
            int op = rnd.nextInt(10);
            if (op < 4 || pods.pods.isEmpty()) {
                Pod p = randomPod(rnd, "p" + created++);
                pods.put(p);
            } else if (op < 7) {
                // Start the containers of a pod that has none yet; half of them before the status names them.
                Pod p = pick(
                        rnd,
                        pods.pods.values().stream()
                                .filter(x -> x.getStatus() == null)
                                .toList());
                if (p != null) {
                    Pod withStatus = withStatus(p);
                    boolean statusFirst = rnd.nextBoolean();
                    if (statusFirst) {
                        pods.put(withStatus);
                    }
                    for (ContainerStatus s : allStatuses(withStatus)) {
                        ContainerCgroup c = new ContainerCgroup(
                                qos(withStatus), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID()));
                        CgroupPath path = naming.containerPath(c);
                        cgroups.actual.put(path, all); // a new cgroup starts with its parent's sets
                        running.put(path, new Running(withStatus, s.getName(), c, path));
                        agent.containerAppeared(c, path, System.nanoTime());
                    }
                    if (!statusFirst) {
                        pods.put(withStatus);
                    }
                }
            } else if (op < 9) {
                Pod p = pick(rnd, List.copyOf(pods.pods.values()));
                pods.remove(p);
                running.values().removeIf(r -> {
                    if (r.pod().getMetadata().getUid().equals(p.getMetadata().getUid())) {
                        cgroups.actual.remove(r.path());
                        agent.containerRemoved(r.path());
                        return true;
                    }
                    return false;
                });
            } else {
                Running r = pick(rnd, List.copyOf(running.values()));
                if (r != null) {
                    cgroups.actual.put(r.path(), all); // someone else widens it
                }
                agent.reconcileNow();
            }
            agent.drain();
            if (cgroups.failureRate == 0) {
                assertExclusive(agent.state(), running, cgroups, where);
                checks++;
            }
        }
        cgroups.failureRate = 0;
        agent.reconcileNow();
        agent.reconcileNow();
        NodeState state = agent.state();
        assertExclusive(state, running, cgroups, "seed " + seed + " end");
        allocator.validate(state);
        for (Running r : running.values()) {
            assertThat(cgroups.actual.get(r.path()))
                    .as("seed %d: %s/%s", seed, r.pod().getMetadata().getName(), r.container())
                    .isEqualTo(expected(state, r, topo));
        }
        System.out.println("NodeAgentChurnTest: " + created + " pods, " + running.size() + " containers at the end, "
                + state.pods().size() + " held, " + checks + " exclusivity checks, " + cgroups.failures
                + " injected write failures");
    }

    private static Pin expected(NodeState state, Running r, CpuTopology topo) {
        PodAssignment pod = state.pods().get(r.pod().getMetadata().getUid());
        CpuSet allMems = allMems(topo);
        if (pod == null || pod.container(r.container()).isEmpty()) {
            return new Pin(state.sharedPool(), allMems);
        }
        ContainerAssignment c = pod.container(r.container()).orElseThrow();
        CpuSet mems =
                c.memoryNodes().isEmpty() ? allMems : CpuSet.of(c.memoryNodes().nodes());
        return new Pin(state.cpusOf(pod, c), mems);
    }

    /**
     * No CPU that the state gives one owner (a bubble or an exclusive container) is held both by that owner and by
     * anyone else. A CPU that only a non-owner still holds (its write to give it up failed) is allowed for a while:
     * the owner is not given it until then, and the end of the test checks that it was given up.
     */
    private static void assertExclusive(
            NodeState state, Map<CgroupPath, Running> running, FakeCgroups cgroups, String where) {
        Map<Integer, String> ownerOf = new HashMap<>();
        for (PodAssignment pod : state.pods().values()) {
            if (pod.hasBubble()) {
                pod.bubble().forEach(cpu -> ownerOf.put(cpu, pod.ref().uid()));
            } else {
                for (ContainerAssignment c : pod.containers()) {
                    if (c.kind() == AssignmentKind.EXCLUSIVE) {
                        c.cpus().forEach(cpu -> ownerOf.put(cpu, pod.ref().uid() + "/" + c.name()));
                    }
                }
            }
        }
        Map<Integer, List<String>> ownersHolding = new HashMap<>();
        Map<Integer, List<String>> othersHolding = new HashMap<>();
        for (Running r : running.values()) {
            if (!cgroups.touched.containsKey(r.path())) {
                continue; // never pinned yet: it still has its parent's sets
            }
            Pin pin = cgroups.actual.get(r.path());
            String uid = r.pod().getMetadata().getUid();
            String self = uid + "/" + r.container();
            String label = r.pod().getMetadata().getName() + "/" + r.container() + " (" + pin + ")";
            pin.cpus().forEach(cpu -> {
                String owner = ownerOf.get(cpu);
                if (owner == null) {
                    return;
                }
                boolean mine = owner.equals(uid) || owner.equals(self) || owner.startsWith(uid + "/");
                (mine ? ownersHolding : othersHolding)
                        .computeIfAbsent(cpu, k -> new ArrayList<>())
                        .add(label);
            });
        }
        othersHolding.forEach((cpu, others) -> assertThat(ownersHolding.get(cpu))
                .as(
                        "%s: CPU %d is exclusive to %s and held by %s, but also by %s",
                        where, cpu, ownerOf.get(cpu), ownersHolding.get(cpu), others)
                .isNull());
    }

    private static <T> T pick(Random rnd, List<T> from) {
        return from.isEmpty() ? null : from.get(rnd.nextInt(from.size()));
    }

    /** Budgeted (bubble), classic Guaranteed with whole CPUs, or Burstable. */
    static Pod randomPod(Random rnd, String name) {
        int kind = rnd.nextInt(3);
        String cpus = String.valueOf(kind == 0 ? 2 + rnd.nextInt(4) : 1 + rnd.nextInt(3));
        return podOfKind(kind, name + "#" + rnd.nextLong(), name, cpus);
    }

    /**
     * Kind 0: a Guaranteed pod with a {@code cpus} pod budget, a native sidecar and a 1-CPU app container; kind 1:
     * classic Guaranteed with {@code cpus} and 1 whole CPUs; kind 2: Burstable.
     */
    static Pod podOfKind(int kind, String uidSeed, String name, String cpus) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("churn")
                .withUid(UUID.nameUUIDFromBytes(uidSeed.getBytes(StandardCharsets.UTF_8))
                        .toString())
                .withCreationTimestamp("2026-11-29T00:00:00Z")
                .endMetadata();
        var spec = b.withNewSpec().withNodeName("churn");
        switch (kind) {
            case 0 -> {
                spec.withResources(SamplePods.guaranteed(cpus, "1Gi"))
                        .addNewInitContainer()
                        .withName("proxy")
                        .withRestartPolicy("Always")
                        .endInitContainer()
                        .addNewContainer()
                        .withName("app")
                        .withResources(SamplePods.guaranteed("1", "256Mi"))
                        .endContainer();
            }
            case 1 -> {
                spec.addNewContainer()
                        .withName("app")
                        .withResources(SamplePods.guaranteed(cpus, "512Mi"))
                        .endContainer()
                        .addNewContainer()
                        .withName("helper")
                        .withResources(SamplePods.guaranteed("1", "64Mi"))
                        .endContainer();
            }
            default ->
                spec.addNewContainer()
                        .withName("web")
                        .withNewResources()
                        .addToRequests("cpu", new Quantity("250m"))
                        .endResources()
                        .endContainer();
        }
        return spec.endSpec().build();
    }

    static Pod withStatus(Pod p) {
        String uid = p.getMetadata().getUid();
        List<ContainerStatus> init = new ArrayList<>();
        for (var c : p.getSpec().getInitContainers()) {
            init.add(status(uid, c.getName()));
        }
        List<ContainerStatus> app = new ArrayList<>();
        for (var c : p.getSpec().getContainers()) {
            app.add(status(uid, c.getName()));
        }
        boolean guaranteed = p.getSpec().getContainers().stream()
                        .allMatch(c -> c.getResources() != null
                                && c.getResources().getLimits() != null
                                && !c.getResources().getLimits().isEmpty())
                || p.getSpec().getResources() != null;
        return new PodBuilder(p)
                .withNewStatus()
                .withPhase("Running")
                .withQosClass(guaranteed ? "Guaranteed" : "Burstable")
                .withInitContainerStatuses(init)
                .withContainerStatuses(app)
                .endStatus()
                .build();
    }

    private static ContainerStatus status(String uid, String name) {
        return new ContainerStatusBuilder()
                .withName(name)
                .withContainerID("containerd://" + sha256(uid + "/" + name))
                .build();
    }

    static List<ContainerStatus> allStatuses(Pod p) {
        List<ContainerStatus> all = new ArrayList<>(p.getStatus().getInitContainerStatuses());
        all.addAll(p.getStatus().getContainerStatuses());
        return all;
    }

    static PodQos qos(Pod p) {
        return "Guaranteed".equals(p.getStatus().getQosClass()) ? PodQos.GUARANTEED : PodQos.BURSTABLE;
    }

    static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static CpuSet allMems(CpuTopology topo) {
        return CpuSet.of(topo.numaNodes().stream().map(n -> n.id()).toList());
    }
}
