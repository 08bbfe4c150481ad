package io.podnuma.agent.runtime;

import static io.podnuma.agent.runtime.RuntimeFixtures.SYSFS;
import static io.podnuma.agent.runtime.RuntimeFixtures.allMems;
import static io.podnuma.agent.runtime.RuntimeFixtures.allStatuses;
import static io.podnuma.agent.runtime.RuntimeFixtures.podOfKind;
import static io.podnuma.agent.runtime.RuntimeFixtures.qos;
import static io.podnuma.agent.runtime.RuntimeFixtures.withStatus;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.node.NodeAllocator;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.agent.SampleConfigs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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

    @TempDir
    Path stateDir;

    private final List<NodeAgent> agents = new ArrayList<>();

    @AfterEach
    void close() {
        agents.forEach(NodeAgent::close);
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
                                .map(r -> new FoundContainer(r.cgroup(), r.path()))
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
}
