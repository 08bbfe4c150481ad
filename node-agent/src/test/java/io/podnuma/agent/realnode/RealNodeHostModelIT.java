package io.podnuma.agent.realnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupDetector;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.watch.CgroupTreeWatcher;
import io.podnuma.agent.cgroup.watch.ContainerCgroupListener;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.kubelet.FileVerdict;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.agent.kubelet.KubeletCheckCache;
import io.podnuma.agent.kubelet.KubeletFiles;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.controlplane.RealNodeOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent's model of the host holds on a real kubelet and containerd: its cgroup detection and naming find the
 * cgroup the kernel puts each container's process in, its inotify watcher sees each container cgroup appear, and its
 * kubelet check asks the real kubelet's PodResources socket which CPU manager policy it runs. Each test starts its own
 * node (they cannot run side by side, and the CPU manager policy is fixed for a kubelet's state directory).
 */
class RealNodeHostModelIT {

    private static final String NS = "default";
    private static final Path HOST_CGROUPS = Path.of("/sys/fs/cgroup");

    @BeforeAll
    static void available() {
        RealNode.assumeAvailable(RealNodeHostModelIT.class);
    }

    @Test
    void detectionNamingAndTheWatcherFindTheKernelsContainerCgroupsAndTheKubeletCheckAllowsCpuManagerNone()
            throws Exception {
        try (LocalControlPlane plane = LocalControlPlane.startForRealKubelet()) {
            plane.startControllers();
            try (RealNode node = RealNode.start(plane, RealNodeOptions.defaults())) {
                // No driver given: the agent must recognise cgroupfs from the kubepods directory the kubelet made.
                CgroupLayout layout = new CgroupDetector(HOST_CGROUPS)
                        .detect(Files.readString(Path.of("/proc/self/mountinfo")), Optional.empty());
                assertThat(layout.naming().driver()).isEqualTo(CgroupDriver.CGROUPFS);
                assertThat(layout.cpusetRoot()).isEqualTo(HOST_CGROUPS.resolve("cpuset"));

                Map<String, ContainerCgroup> appeared = new ConcurrentHashMap<>();
                Map<String, CgroupPath> appearedAt = new ConcurrentHashMap<>();
                ContainerCgroupListener listener = new ContainerCgroupListener() {
                    @Override
                    public void containerAppeared(ContainerCgroup container, CgroupPath path, long seenNanos) {
                        appeared.put(container.containerId().id(), container);
                        appearedAt.put(container.containerId().id(), path);
                    }

                    @Override
                    public void containerRemoved(ContainerCgroup container, CgroupPath path, long seenNanos) {}
                };
                try (CgroupTreeWatcher watcher = CgroupTreeWatcher.start(layout, listener)) {
                    // Leftovers of other runs must not make this test pass: only what appears from here counts.
                    Set<String> before = Set.copyOf(appeared.keySet());

                    Pod bestEffort = node.runPausePod(NS, "hm-besteffort", "", "");
                    Pod guaranteed = node.runPausePod(NS, "hm-guaranteed", """
                              resources:
                                requests: {cpu: "1", memory: 256Mi}
                                limits: {cpu: "1", memory: 256Mi}
                            """, "");
                    assertThat(bestEffort.getStatus().getQosClass()).isEqualTo("BestEffort");
                    assertThat(guaranteed.getStatus().getQosClass()).isEqualTo("Guaranteed");

                    for (Pod pod : List.of(bestEffort, guaranteed)) {
                        PodQos qos = qos(pod);
                        String uid = pod.getMetadata().getUid();
                        List<String> ids = containerIds(pod);
                        assertThat(ids).isNotEmpty();
                        for (String id : ids) {
                            ContainerCgroup expected =
                                    new ContainerCgroup(qos, uid, ContainerId.parse("containerd://" + id));
                            CgroupPath named = layout.naming().containerPath(expected);
                            long pid = node.containerPid(id).orElseThrow();
                            assertThat(cpusetCgroupOf(pid))
                                    .as("kernel's cpuset cgroup of container %s (pid %d)", id, pid)
                                    .isEqualTo(named.toString());
                            assertThat(Files.readAllLines(
                                            named.in(layout.cpusetRoot()).resolve("cgroup.procs")))
                                    .contains(String.valueOf(pid));
                            await().atMost(Duration.ofSeconds(10))
                                    .pollInterval(Duration.ofMillis(50))
                                    .untilAsserted(() -> assertThat(appeared).containsKey(id));
                            assertThat(before).doesNotContain(id);
                            assertThat(appeared.get(id)).isEqualTo(expected);
                            assertThat(appearedAt.get(id)).isEqualTo(named);
                            assertThat(layout.naming().parse(named)).contains(expected);
                        }
                        // Beside the containers the watcher also reports the pod's sandbox (pause) cgroup, in the
                        // same pod directory: only the pod status tells the two apart.
                        Set<String> ofPod = appeared.entrySet().stream()
                                .filter(e -> e.getValue().podUid().equals(uid))
                                .map(Map.Entry::getKey)
                                .collect(Collectors.toSet());
                        Set<String> extra =
                                ofPod.stream().filter(i -> !ids.contains(i)).collect(Collectors.toSet());
                        System.err.println(
                                "[RealNodeHostModelIT] pod " + pod.getMetadata().getName() + " (" + qos
                                        + "): containers " + ids + ", other cgroups in the pod directory " + extra);
                        assertThat(extra)
                                .as("the sandbox cgroup of pod %s", uid)
                                .hasSize(1);
                        for (String sandbox : extra) {
                            CgroupPath at = appearedAt.get(sandbox);
                            assertThat(at.parent()).isEqualTo(layout.naming().podPath(qos, uid));
                            // containerd labels the CRI sandbox; its pause process lives in that cgroup too.
                            assertThat(node.ctr("containers", "info", sandbox)
                                            .assertSuccess()
                                            .stdout())
                                    .contains("\"io.cri-containerd.kind\": \"sandbox\"");
                            long sandboxPid = node.containerPid(sandbox).orElseThrow();
                            assertThat(cpusetCgroupOf(sandboxPid)).isEqualTo(at.toString());
                        }
                    }
                }

                KubeletCheck check = check(kubeletFiles(node));
                System.err.println("[RealNodeHostModelIT] kubelet check with CPU manager none: " + check.verdict()
                        + ": " + check.message());
                assertThat(check.verdict()).isEqualTo(FileVerdict.COMPATIBLE);
                assertThat(check.files()).allMatch(f -> f.verdict() == FileVerdict.COMPATIBLE);
                assertThat(check.message()).contains("the kubelet offers no exclusive CPU and no NUMA memory block");
                assertThat(check.agentMayWrite()).isTrue();

                deletePods(plane, "hm-besteffort", "hm-guaranteed");
            }
        }
    }

    @Test
    void theKubeletCheckReportsAConflictFromTheRealStaticCpuManagerState() throws IOException {
        int cpus = Runtime.getRuntime().availableProcessors();
        Assumptions.assumeTrue(
                cpus >= 2, "the static policy reserves CPU 0 and needs a second CPU; this machine has " + cpus);
        try (LocalControlPlane plane = LocalControlPlane.startForRealKubelet()) {
            plane.startControllers();
            try (RealNode node = RealNode.start(
                    plane, RealNodeOptions.defaults().withCpuManagerPolicy(RealNodeOptions.CpuManagerPolicy.STATIC))) {
                // The kubelet's PodResources answer alone (no configuration file) must be enough to stop the agent.
                KubeletCheck fromApi = check(new KubeletFiles(Optional.of(kubeletSocket(node)), Optional.empty()));
                System.err.println("[RealNodeHostModelIT] kubelet check with CPU manager static: " + fromApi.verdict()
                        + ": " + fromApi.message());
                assertThat(fromApi.verdict()).isEqualTo(FileVerdict.CONFLICT);
                assertThat(fromApi.agentMayWrite()).isFalse();
                // CPU 0 is reserved: the static policy offers the others.
                assertThat(fromApi.message())
                        .contains("the kubelet offers CPUs 1")
                        .contains("its CPU manager policy is static");

                KubeletCheck all = check(kubeletFiles(node));
                assertThat(all.verdict()).isEqualTo(FileVerdict.CONFLICT);
                assertThat(all.agentMayWrite()).isFalse();
                assertThat(all.files())
                        .filteredOn(f -> f.verdict() == FileVerdict.CONFLICT)
                        .hasSize(2); // the kubelet's answer and the configuration file
            }
        }
    }

    private static KubeletFiles kubeletFiles(RealNode node) {
        return new KubeletFiles(Optional.of(kubeletSocket(node)), Optional.of(node.kubeletConfigFile()));
    }

    private static Path kubeletSocket(RealNode node) {
        return node.kubeletRootDir().resolve("pod-resources").resolve(KubeletFiles.KUBELET_SOCKET);
    }

    /** One check as the agent's reconcile tick makes it. */
    private static KubeletCheck check(KubeletFiles files) {
        try (KubeletCheckCache cache = new KubeletCheckCache(files, Duration.ofSeconds(10))) {
            return cache.get();
        }
    }

    private static PodQos qos(Pod pod) {
        String wire = pod.getStatus().getQosClass();
        return Arrays.stream(PodQos.values())
                .filter(q -> q.wireName().equals(wire))
                .findFirst()
                .orElseThrow(() -> new AssertionError("unknown QoS class " + wire));
    }

    private static List<String> containerIds(Pod pod) {
        return pod.getStatus().getContainerStatuses().stream()
                .map(ContainerStatus::getContainerID)
                .peek(id -> assertThat(id).matches("containerd://[0-9a-f]{64}"))
                .map(id -> id.substring("containerd://".length()))
                .toList();
    }

    private static void deletePods(LocalControlPlane plane, String... names) {
        for (String name : names) {
            plane.kubectl("delete", "pod", "-n", NS, name, "--wait=true", "--timeout=60s")
                    .assertSuccess();
        }
    }

    /** The path of {@code pid}'s cgroup in the v1 cpuset hierarchy, from {@code /proc/<pid>/cgroup}. */
    private static String cpusetCgroupOf(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/cgroup")).stream()
                .map(line -> line.split(":", 3))
                .filter(parts -> List.of(parts[1].split(",")).contains("cpuset"))
                .map(parts -> parts[2])
                .findFirst()
                .orElseThrow(() -> new AssertionError("no cpuset line in /proc/" + pid + "/cgroup"));
    }
}
