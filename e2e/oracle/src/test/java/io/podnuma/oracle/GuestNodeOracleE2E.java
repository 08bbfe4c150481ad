package io.podnuma.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.GuestKernel;
import io.podnuma.controlplane.GuestNode;
import io.podnuma.controlplane.GuestNodeOptions;
import io.podnuma.controlplane.GuestTopology;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.MemoryManager;
import io.podnuma.crds.v1alpha1.policy.MemoryManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.NumaMemoryReservation;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.agent.Simulation;
import io.podnuma.testkit.agent.Simulation.Placement;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.devices.AccelPlugin;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kubelet as a live oracle on a multi-NUMA cgroup v2 node ({@link GuestNode}, two NUMA nodes here, four in
 * {@link GuestNodeFourNumaOracleE2E}): generated pod sets ({@link OraclePodSets}) are admitted by the kubelet's own
 * static CPU manager, memory manager {@code Static} and topology manager {@code single-numa-node} at pod scope with
 * {@code PodLevelResourceManagers}, and the same pods go through podnuma's engine ({@code node-agent simulate}) on
 * the guest's sysfs with the same settings. Every container's CPUs and memory nodes, as its process sees them in the
 * guest, must be the engine's, and the same pods must be refused.
 *
 * <p>The one named difference: a budget whose exclusive containers leave nothing for its shared ones is refused by
 * both, but the kubelet names the topology manager ({@code TopologyAffinityError}: its pod-level CPU hints leave out
 * a budget the partition cannot fill), podnuma the partition ({@code EmptyPodSharedPoolError}); the refused pods are
 * compared, their reasons printed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GuestNodeOracleE2E {

    private static final String NS = "oracle";
    /** Pod sets per topology; {@code -Dpodnuma.oracle.sets} runs more. */
    private static final int SETS = Integer.getInteger("podnuma.oracle.sets", 20);
    /** Every how many sets one runs its containers; the others are compared in the kubelet's checkpoints only. */
    private static final int RUNNING_EVERY = Integer.getInteger("podnuma.oracle.runningEvery", 20);
    /** The RuntimeClass of pods that are admitted but never started: containerd has no such handler. */
    private static final String ADMIT_ONLY = "podnuma-admit-only";
    /**
     * How long the containers' lists may still differ from the engine's once they run: the kubelet's reconcile period
     * (2 s on this node) twice and a read take 8 s on a quiet host; the build runs this beside the operator's tests
     * and the image builds, and the loop ends as soon as they agree.
     */
    private static final Duration SETTLE = Duration.ofSeconds(30);

    @TempDir
    Path workDir;

    private LocalControlPlane plane;
    private GuestNode node;
    private Path sysfs;

    GuestTopology topology() {
        return GuestTopology.TWO_NODES;
    }

    @BeforeAll
    void boot() {
        try {
            plane = LocalControlPlane.startForRealKubelet();
            node = GuestNode.start(
                    plane,
                    GuestNodeOptions.of(topology(), GuestNodeOptions.KubeletManagers.STATIC_SINGLE_NUMA_NODE_POD_SCOPE)
                            // Beside the operator module, but the guest journey waits for this guest (one guest at a
                            // time): at the default priority it took 375 s instead of 233 s and the journey waited
                            // 65 s for it, more than the operator gained.
                            .withPriority(GuestKernel.Priority.RAISED));
        } catch (ControlPlaneUnavailableException e) {
            System.out.println(getClass().getSimpleName() + " skipped: " + e.getMessage());
            Assumptions.abort(e.getMessage());
        }
        plane.ensureNamespace(NS);
        plane.kubectlWithStdin("""
                        apiVersion: node.k8s.io/v1
                        kind: RuntimeClass
                        metadata:
                          name: %s
                        handler: %s
                        """.formatted(ADMIT_ONLY, ADMIT_ONLY), "apply", "-f", "-")
                .assertSuccess();
        sysfs = node.sysfsSnapshot();
    }

    @AfterAll
    void tearDown() {
        if (node != null) {
            node.close();
        }
        if (plane != null) {
            plane.close();
        }
    }

    /** What the kubelet is configured with: CPU 0 and 128 MiB of node 0 reserved, single-numa-node, pod scope. */
    static NumaResourcePolicySpec policy() {
        NumaResourcePolicySpec s =
                SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, false);
        return new NumaResourcePolicySpec(
                s.nodeSelector(),
                s.priority(),
                s.topologyManager(),
                s.cpuManager(),
                new MemoryManager(
                        MemoryManagerPolicy.STATIC,
                        List.of(new NumaMemoryReservation(0, Map.of("memory", new Quantity("128Mi"))))),
                s.podLevelResources(),
                s.admission(),
                s.exportNodeResourceTopology());
    }

    @Test
    @Order(1)
    void theNodeHasItsNumaNodesOnCgroupV2() {
        StringBuilder script = new StringBuilder();
        for (int n = 0; n < topology().nodes(); n++) {
            script.append("cat /sys/devices/system/node/node").append(n).append("/cpulist\n");
        }
        script.append("grep ' /sys/fs/cgroup ' /proc/mounts\n");
        script.append("cat /sys/fs/cgroup/kubepods/cgroup.subtree_control\n");
        List<String> lines =
                node.exec(script.toString(), Duration.ofSeconds(30)).lines().toList();
        for (int n = 0; n < topology().nodes(); n++) {
            assertThat(lines.get(n))
                    .as("CPUs of NUMA node " + n)
                    .isEqualTo(topology().firstCpu(n) + "-" + topology().lastCpu(n));
        }
        assertThat(lines.get(topology().nodes()))
                .as("the only cgroup mount")
                .startsWith("cgroup2 /sys/fs/cgroup cgroup2 ");
        assertThat(plane.client()
                        .nodes()
                        .withName(node.nodeName())
                        .get()
                        .getStatus()
                        .getCapacity()
                        .get("cpu")
                        .getAmount())
                .isEqualTo(String.valueOf(topology().cpus()));
    }

    @Test
    @Order(2)
    void theKubeletAndTheEngineGiveEveryGeneratedPodSetTheSameCpusAndMemoryNodes() throws Exception {
        OraclePodSets generator = new OraclePodSets(topology(), node.nodeName());
        List<OraclePodSets.PodSet> sets =
                IntStream.range(0, SETS).mapToObj(generator::generate).toList();
        ExecutorService simulations = Executors.newSingleThreadExecutor();
        Tally tally = new Tally();
        long t1 = System.nanoTime();
        try {
            // The engine runs beside the kubelet (each set a JVM of its own); a set waits for its result only when
            // it is compared.
            List<Future<Simulation.Result>> engine = sets.stream()
                    .map(set -> simulations.submit(() -> simulate(set)))
                    .toList();
            for (OraclePodSets.PodSet set : sets) {
                long ts = System.nanoTime();
                boolean running = runsContainers(set.index());
                Kubelet kubelet = admitOnTheKubelet(set, running, engine.get(set.index()));
                tally.add(set, running, kubelet, engine.get(set.index()).get());
                deleteAll();
                System.out.printf(
                        "  set %d: %d pods%s, %.1f s%n",
                        set.index(),
                        set.pods().size(),
                        running ? " (containers running)" : "",
                        (System.nanoTime() - ts) / 1e9);
            }
        } finally {
            simulations.shutdownNow();
        }
        double kubeletSeconds = (System.nanoTime() - t1) / 1e9;
        System.out.printf(
                "%s: %d pod sets on %d NUMA nodes (%d with their containers running): %d pods admitted, %d refused,"
                        + " %d containers compared (%d with memory on one NUMA node), %d differences; %.1f s per set%n",
                getClass().getSimpleName(),
                SETS,
                topology().nodes(),
                tally.runningSets,
                tally.admitted,
                tally.refusals.size(),
                tally.containers,
                tally.oneMemoryNode,
                tally.differences.size(),
                kubeletSeconds / SETS);
        tally.refusals.forEach((pod, why) -> System.out.println("  refused " + pod + ": " + why));
        assertThat(tally.differences)
                .as("where the kubelet and the engine differ")
                .isEmpty();
        assertThat(tally.refusals)
                .as("pods refused for their topology, over all sets")
                .isNotEmpty();
        assertThat(tally.oneMemoryNode)
                .as("containers whose memory is pinned to one node")
                .isPositive();
        assertThat(tally.runningSets)
                .as("sets compared in the containers' own cgroups")
                .isPositive();
    }

    /**
     * Three accelerators on NUMA node 1 (the test kit's device plugin, registered with the guest's kubelet), and budgets
     * asking for one: the kubelet's topology manager aligns each with the accelerator it gives (its device manager is a
     * hint provider), podnuma's engine with the accelerator the kubelet gave, and both must agree. {@code infer} goes
     * to node 1 though node 0 is free (the device's hint), {@code plain} (no device) to node 0, {@code infer-wide}
     * cannot fit beside the other accelerator and is refused by both, {@code infer-small} fits there.
     */
    @Test
    @Order(3)
    void theKubeletAndTheEngineAlignABudgetWithTheAcceleratorTheKubeletGaveIt() throws Exception {
        AccelPlugin accelerators = AccelPlugin.onNumaNode(3, 1);
        node.runInBackground(
                AccelPlugin.build(workDir), accelerators.arguments(GuestNode.KUBELET_ROOT + "/device-plugins"));
        Waits.await(
                Duration.ofSeconds(120),
                "the node's allocatable " + AccelPlugin.ACCEL + " to be 3",
                () -> Optional.ofNullable(
                                plane.client().nodes().withName(node.nodeName()).get())
                        .map(n -> n.getStatus().getAllocatable().get(AccelPlugin.ACCEL))
                        .filter(q -> q.getAmount().equals("3")));
        List<Pod> pods = List.of(
                SamplePods.withDevices(
                        SamplePods.budgeted(node.nodeName(), "infer", 2), "engine", AccelPlugin.ACCEL, 1),
                SamplePods.budgeted(node.nodeName(), "plain", 2),
                SamplePods.withDevices(
                        SamplePods.budgeted(node.nodeName(), "infer-wide", 3), "engine", AccelPlugin.ACCEL, 1),
                SamplePods.withDevices(
                        SamplePods.budgeted(node.nodeName(), "infer-small", 1), "engine", AccelPlugin.ACCEL, 1));
        Map<String, String> refusals = new TreeMap<>();
        List<Pod> admitted = new ArrayList<>();
        for (Pod pod : pods) {
            plane.client()
                    .pods()
                    .inNamespace(NS)
                    .resource(new PodBuilder(pod)
                            .editSpec()
                            .withRuntimeClassName(ADMIT_ONLY)
                            .endSpec()
                            .build())
                    .create();
            Pod decided = awaitDecided(pod.getMetadata().getName());
            if ("Failed".equals(decided.getStatus().getPhase())) {
                refusals.put(
                        pod.getMetadata().getName(),
                        decided.getStatus().getReason() + ": "
                                + decided.getStatus().getMessage());
            } else {
                admitted.add(decided);
            }
        }
        Map<String, Map<String, Placement>> kubelet = KubeletCheckpoints.parse(
                        node.exec(KubeletCheckpoints.script(GuestNode.KUBELET_ROOT), Duration.ofSeconds(30)))
                .placements(admitted, topology().nodes());
        KubeletDevices given =
                KubeletDevices.parse(node.exec(KubeletDevices.script(GuestNode.KUBELET_ROOT), Duration.ofSeconds(30)));
        // The kubelet 1.37 gives a budget (pod-level resources under PodLevelResourceManagers) its devices only when
        // its containers start: its device manager's AllocatePod does nothing, the admission aligns by the devices'
        // hints and stores the hint the later allocation follows. These pods never start, so each asking pod is given
        // the next accelerator in id order, as the device manager hands out aligned ones (all are on node 1: which
        // one does not move the placement); the pod refused too, as the kubelet without a topology manager (podnuma's
        // own deployment) would give it one. Where the checkpoint names some, those.
        Deque<String> free = new ArrayDeque<>(accelerators.devices().keySet());
        free.removeAll(given.allGiven());
        List<Simulation.Step> steps = new ArrayList<>();
        Map<String, Map<String, List<String>>> gave = new TreeMap<>();
        for (Pod pod : pods) {
            String name = pod.getMetadata().getName();
            Map<String, List<String>> held = admitted.stream()
                    .filter(p -> p.getMetadata().getName().equals(name))
                    .findFirst()
                    .map(p -> given.given(p.getMetadata().getUid()))
                    .filter(m -> !m.isEmpty())
                    .orElseGet(() -> asksForAnAccelerator(pod) ? Map.of("engine", List.of(free.pop())) : Map.of());
            gave.put(name, held);
            steps.add(Simulation.Step.admit(
                    held.isEmpty()
                            ? pod
                            : new PodBuilder(pod)
                                    .editMetadata()
                                    .addToAnnotations("podnuma.io/simulate-devices", devicesAnnotation(held))
                                    .endMetadata()
                                    .build()));
        }
        Simulation.Result engine = Simulation.run(
                sysfs,
                policy(),
                NS,
                steps,
                workDir,
                topology().nodes() + "-devices",
                Optional.of(accelerators.simulateDevices()));
        System.out.printf(
                "%s, devices: given %s; placed by the kubelet %s, refused %s; by the engine %s, refused %s%n",
                getClass().getSimpleName(),
                gave,
                kubelet,
                refusals.keySet(),
                expected(engine),
                engine.refusals().keySet());
        deleteAll();

        assertThat(kubelet).as("the kubelet's checkpoints against the engine").isEqualTo(expected(engine));
        assertThat(refusals.keySet())
                .as("refused")
                .isEqualTo(engine.refusals().keySet())
                .containsExactly("infer-wide");
        assertThat(engine.refusals().get("infer-wide"))
                .startsWith("TopologyAffinityError")
                .contains(AccelPlugin.ACCEL);
        CpuList accelNode =
                CpuList.parse(topology().firstCpu(1) + "-" + topology().lastCpu(1));
        for (String pod : List.of("infer", "infer-small")) {
            assertThat(kubelet.get(pod).values()).allSatisfy(p -> {
                assertThat(accelNode.ids())
                        .as("%s's CPUs where its accelerator is", pod)
                        .containsAll(p.cpus().ids());
                assertThat(p.memoryNodes()).isEqualTo(CpuList.of(1));
            });
        }
        assertThat(kubelet.get("plain").values())
                .allSatisfy(p -> assertThat(p.cpus().ids()).doesNotContainAnyElementsOf(accelNode.ids()));
    }

    private static boolean asksForAnAccelerator(Pod pod) {
        return pod.getSpec().getContainers().stream()
                .anyMatch(c -> c.getResources() != null
                        && c.getResources().getLimits() != null
                        && c.getResources().getLimits().containsKey(AccelPlugin.ACCEL));
    }

    /** simulate's annotation for what the kubelet gave: {@code <container>=<id>[,<id>...]}, {@code ;} between. */
    private static String devicesAnnotation(Map<String, List<String>> held) {
        return held.entrySet().stream()
                .map(e -> e.getKey() + "=" + String.join(",", e.getValue()))
                .collect(Collectors.joining(";"));
    }

    /**
     * The last of every {@link #RUNNING_EVERY} sets runs its containers: last, so that no other set is admitted while
     * the kubelet stops them.
     */
    private static boolean runsContainers(int set) {
        return set % RUNNING_EVERY == RUNNING_EVERY - 1;
    }

    private Simulation.Result simulate(OraclePodSets.PodSet set) {
        return Simulation.run(
                sysfs,
                policy(),
                NS,
                set.pods().stream().map(Simulation.Step::admit).toList(),
                workDir,
                topology().nodes() + "-" + set.index());
    }

    /** What the sets added up to, and every difference found. */
    private static final class Tally {
        final List<String> differences = new ArrayList<>();
        final Map<String, String> refusals = new TreeMap<>();
        int admitted;
        int containers;
        int oneMemoryNode;
        int runningSets;

        void add(OraclePodSets.PodSet set, boolean running, Kubelet kubelet, Simulation.Result engine) {
            String where = "set " + set.index() + " (seed " + Long.toHexString(set.seed()) + ")";
            if (!kubelet.refusals().keySet().equals(engine.refusals().keySet())) {
                differences.add(where + ": refused by the kubelet " + kubelet.refusals() + ", by the engine "
                        + engine.refusals());
            }
            Map<String, Map<String, Placement>> expected = expected(engine, kubelet.numaNodes());
            if (!kubelet.checkpoints().equals(expected)) {
                differences.add(where + ", the kubelet's checkpoints:\n  kubelet " + kubelet.checkpoints()
                        + "\n  engine  " + expected);
            }
            if (running && !kubelet.cgroups().equals(expected)) {
                differences.add(where + ", the containers' own lists:\n  kubelet " + kubelet.cgroups() + "\n  engine  "
                        + expected);
            }
            kubelet.cgroupMismatches().forEach(m -> differences.add(where + ": " + m));
            runningSets += running ? 1 : 0;
            admitted += kubelet.checkpoints().size();
            for (Map<String, Placement> cs : kubelet.checkpoints().values()) {
                containers += cs.size();
                oneMemoryNode += (int) cs.values().stream()
                        .filter(p -> p.memoryNodes().size() == 1)
                        .count();
            }
            kubelet.refusals()
                    .forEach((pod, why) -> refusals.put(
                            pod,
                            "kubelet " + why + " | engine " + engine.refusals().get(pod)));
        }
    }

    private Map<String, Map<String, Placement>> expected(Simulation.Result engine) {
        return expected(engine, topology().nodes());
    }

    /** The engine's placements as a container sees them: unpinned memory is every node. */
    private static Map<String, Map<String, Placement>> expected(Simulation.Result engine, int numaNodes) {
        CpuList all = CpuList.of(IntStream.range(0, numaNodes).boxed().toArray(Integer[]::new));
        Map<String, Map<String, Placement>> out = new TreeMap<>();
        engine.pods().forEach((pod, cs) -> {
            Map<String, Placement> m = new TreeMap<>();
            cs.forEach(
                    (c, p) -> m.put(c, new Placement(p.cpus(), p.memoryNodes().isEmpty() ? all : p.memoryNodes())));
            out.put(pod, m);
        });
        return out;
    }

    /**
     * The kubelet's decisions on one set: from its checkpoints, and (sets that run their containers) from each
     * container's process and cgroup.
     */
    private record Kubelet(
            int numaNodes,
            Map<String, Map<String, Placement>> checkpoints,
            Map<String, Map<String, Placement>> cgroups,
            Map<String, String> refusals,
            List<String> cgroupMismatches) {}

    /**
     * Creates the set's pods one after another, each once the kubelet decided the one before (the order is what its
     * managers decide by), and reads the managers' checkpoints. A set that does not run its containers names a
     * RuntimeClass whose handler containerd lacks: the managers admit and allocate, no sandbox ever starts. A set
     * that runs them waits until they run, then reads every container's lists in the guest, again while they differ
     * from {@code expected} until the shared pool settled ({@link #SETTLE}).
     */
    private Kubelet admitOnTheKubelet(OraclePodSets.PodSet set, boolean running, Future<Simulation.Result> engine)
            throws Exception {
        Map<String, String> refusals = new TreeMap<>();
        List<Pod> admitted = new ArrayList<>();
        for (Pod pod : set.pods()) {
            String name = pod.getMetadata().getName();
            Pod create = running
                    ? pod
                    : new PodBuilder(pod)
                            .editSpec()
                            .withRuntimeClassName(ADMIT_ONLY)
                            .endSpec()
                            .build();
            plane.client().pods().inNamespace(NS).resource(create).create();
            Pod decided = awaitDecided(name);
            if ("Failed".equals(decided.getStatus().getPhase())) {
                refusals.put(
                        name,
                        decided.getStatus().getReason() + ": "
                                + decided.getStatus().getMessage());
            } else {
                admitted.add(decided);
            }
        }
        KubeletCheckpoints checkpoints = KubeletCheckpoints.parse(
                node.exec(KubeletCheckpoints.script(GuestNode.KUBELET_ROOT), Duration.ofSeconds(30)));
        Map<String, Map<String, Placement>> decided =
                checkpoints.placements(admitted, topology().nodes());
        if (!running) {
            return new Kubelet(topology().nodes(), decided, Map.of(), refusals, List.of());
        }
        List<Pod> pods = admitted.stream()
                .map(p -> node.awaitRunning(NS, p.getMetadata().getName()))
                .toList();
        Map<String, Map<String, Placement>> expected = expected(engine.get());
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (true) {
            Map<String, GuestNode.ContainerCgroup> cgroups = node.containerCgroups();
            Map<String, Map<String, Placement>> placements = new TreeMap<>();
            List<String> mismatches = new ArrayList<>();
            for (Pod p : pods) {
                Map<String, Placement> cs = new TreeMap<>();
                for (ContainerStatus s : statuses(p)) {
                    String id = s.getContainerID().replaceFirst("^containerd://", "");
                    GuestNode.ContainerCgroup cg = Optional.ofNullable(cgroups.get(id))
                            .orElseThrow(() -> new AssertionError("no running process in the cgroup of "
                                    + p.getMetadata().getName() + "/" + s.getName() + " (" + id + ")"));
                    cs.put(
                            s.getName(),
                            new Placement(CpuList.parse(cg.cpusAllowed()), CpuList.parse(cg.memsAllowed())));
                    if (!cg.cpusAllowed().equals(cg.cpusEffective())
                            || !cg.memsAllowed().equals(cg.memsEffective())) {
                        mismatches.add(p.getMetadata().getName() + "/" + s.getName() + ": the process may use CPUs "
                                + cg.cpusAllowed() + " mems " + cg.memsAllowed() + ", its cgroup's effective cpuset "
                                + cg.cpusEffective() + " mems " + cg.memsEffective());
                    }
                }
                placements.put(p.getMetadata().getName(), cs);
            }
            if (placements.equals(expected) || System.nanoTime() > deadline) {
                return new Kubelet(topology().nodes(), decided, placements, refusals, mismatches);
            }
            sleep(Duration.ofSeconds(1));
        }
    }

    private static List<ContainerStatus> statuses(Pod p) {
        List<ContainerStatus> all = new ArrayList<>(p.getStatus().getContainerStatuses());
        if (p.getStatus().getInitContainerStatuses() != null) {
            all.addAll(p.getStatus().getInitContainerStatuses());
        }
        return all;
    }

    /** The kubelet's first word on a pod: refused (Failed), or admitted (it set the pod's start time). */
    private Pod awaitDecided(String name) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            Pod p = plane.client().pods().inNamespace(NS).withName(name).get();
            if (p != null
                    && p.getStatus() != null
                    && ("Failed".equals(p.getStatus().getPhase())
                            || p.getStatus().getStartTime() != null)) {
                return p;
            }
            sleep(Duration.ofMillis(200));
        }
        throw new AssertionError("the kubelet did not decide pod " + name + " within 90 s");
    }

    /** Deletes the set's pods at once (nothing of theirs to stop gracefully) and waits until they are gone. */
    private void deleteAll() {
        plane.client().pods().inNamespace(NS).withGracePeriod(0).delete();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!plane.client().pods().inNamespace(NS).list().getItems().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the pods of namespace " + NS + " were not gone 60 s after their deletion");
            }
            sleep(Duration.ofMillis(200));
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
