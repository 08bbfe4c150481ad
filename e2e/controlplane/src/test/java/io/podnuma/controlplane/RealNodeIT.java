package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.oci.PauseImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The real node is real: a kubelet and containerd on this machine run pods as processes in the kubelet's cgroups,
 * logs and exec work, deleting a pod ends its processes, and closing the node leaves the host as it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealNodeIT {

    private static final String NS = "default";

    private final long started = System.nanoTime();
    private LocalControlPlane plane;
    private RealNode node;
    private HostSnapshot before;

    @BeforeAll
    void startNode() {
        RealNode.assumeAvailable(RealNodeIT.class);
        // Taken before the node's own start-up undoes any killed run's leftovers: after the test, the host must
        // look like this again; so undo those first.
        RealNode.undoDeadRuns(
                Path.of(System.getProperty(RealNode.BASE_DIR_PROPERTY, RealNode.DEFAULT_BASE_DIR.toString())));
        before = HostSnapshot.take();
        System.err.println("[RealNodeIT] host before: " + before);
        node = RealNode.startWithPlane(RealNodeOptions.defaults());
        plane = node.plane();
        System.err.println(
                "[RealNodeIT] real node started in " + node.startupTime().toMillis() + " ms");
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
        System.err.println("[RealNodeIT] ran in "
                + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
    }

    @Test
    @Order(1)
    void theNodeIsReadyUntaintedAndRunsContainerd() {
        Node n = plane.client().nodes().withName(node.nodeName()).get();
        assertThat(RealNode.isReady(n)).isTrue();
        assertThat(RealNode.untainted(n)).isTrue();
        assertThat(n.getStatus().getNodeInfo().getContainerRuntimeVersion()).isEqualTo("containerd://2.4.2");
        assertThat(n.getStatus().getNodeInfo().getKubeletVersion()).isEqualTo("v1.37.2");
    }

    @Test
    @Order(2)
    void aBestEffortPodRunsAsARealProcessInTheKubeletsBestEffortCgroup() throws IOException {
        Pod pod = node.runPausePod(NS, "besteffort", "", "");
        String uid = pod.getMetadata().getUid();
        long pid = containerPid(pod);
        assertThat(cgroupOf(pid, "cpuset")).isEqualTo("/kubepods/besteffort/pod" + uid + "/" + containerId(pod));
        assertThat(cgroupOf(pid, "memory")).isEqualTo("/kubepods/besteffort/pod" + uid + "/" + containerId(pod));
        assertThat(pod.getStatus().getQosClass()).isEqualTo("BestEffort");
        assertThat(pod.getStatus().getPodIP()).startsWith("10.88.");

        CommandResult logs = plane.kubectl("logs", "-n", NS, "besteffort").assertSuccess();
        assertThat(logs.stdout()).contains(PauseImage.STARTED_LINE);
        // The pause image has no shell: exec its own binary.
        CommandResult exec = plane.kubectl("exec", "-n", NS, "besteffort", "--", "/pause", "--version")
                .assertSuccess();
        assertThat(exec.stdout().strip()).isEqualTo(PauseImage.VERSION_LINE);

        deleteAndAwaitGone("besteffort", pid);
    }

    @Test
    @Order(3)
    void aGuaranteedPodWithPodLevelResourcesGetsItsPodCgroupLimits() throws IOException {
        Pod pod = node.runPausePod(NS, "guaranteed", """
                  resources:
                    requests: {cpu: "1", memory: 512Mi}
                    limits: {cpu: "1", memory: 512Mi}
                """, "");
        String uid = pod.getMetadata().getUid();
        long pid = containerPid(pod);
        assertThat(pod.getStatus().getQosClass()).isEqualTo("Guaranteed");
        String podCgroup = "/kubepods/pod" + uid;
        assertThat(cgroupOf(pid, "cpu")).isEqualTo(podCgroup + "/" + containerId(pod));
        assertThat(cgroupOf(pid, "cpuset")).isEqualTo(podCgroup + "/" + containerId(pod));
        assertThat(Files.readString(Path.of("/sys/fs/cgroup/cpu" + podCgroup + "/cpu.cfs_quota_us"))
                        .strip())
                .isEqualTo("100000");
        assertThat(Files.readString(Path.of("/sys/fs/cgroup/memory" + podCgroup + "/memory.limit_in_bytes"))
                        .strip())
                .isEqualTo(String.valueOf(512L * 1024 * 1024));

        deleteAndAwaitGone("guaranteed", pid);
    }

    @Test
    @Order(4)
    void afterTheNodeStopsNothingIsLeftOnTheHost() {
        Path runDir = node.runDir();
        node.close();
        HostSnapshot after = HostSnapshot.take();
        assertThat(after).isEqualTo(before);
        // Absolute too, so a leftover of an earlier class in this JVM cannot hide in "before".
        assertThat(after.kubepods()).doesNotContainValue(true);
        assertThat(after.bridge()).isFalse();
        assertThat(after.mountsOfNode()).isEmpty();
        assertThat(HostChanges.mountsBelow(runDir)).isEmpty();
        assertThat(runDir).doesNotExist();
        assertThat(processesMentioning(runDir.toString())).isEmpty();
    }

    private static String containerId(Pod pod) {
        String id = pod.getStatus().getContainerStatuses().get(0).getContainerID();
        assertThat(id).matches("containerd://[0-9a-f]{64}");
        return id.substring("containerd://".length());
    }

    private long containerPid(Pod pod) {
        long pid = node.containerPid(containerId(pod)).orElseThrow();
        assertThat(ProcessHandle.of(pid)).isPresent();
        return pid;
    }

    /** The cgroup path of {@code pid} in the v1 hierarchy of {@code controller}, from {@code /proc/<pid>/cgroup}. */
    private static String cgroupOf(long pid, String controller) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/cgroup")).stream()
                .map(line -> line.split(":", 3))
                .filter(parts -> List.of(parts[1].split(",")).contains(controller))
                .map(parts -> parts[2])
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + controller + " line in /proc/" + pid + "/cgroup"));
    }

    private void deleteAndAwaitGone(String name, long pid) {
        plane.kubectl("delete", "pod", "-n", NS, name, "--wait=true", "--timeout=60s")
                .assertSuccess();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }

    private static List<Long> processesMentioning(String marker) {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> {
                        try {
                            return new String(Files.readAllBytes(p.resolve("cmdline"))).contains(marker);
                        } catch (IOException gone) {
                            return false;
                        }
                    })
                    .map(p -> Long.parseLong(p.getFileName().toString()))
                    .filter(pid -> pid != ProcessHandle.current().pid())
                    .toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** What the real node may change on the host, as one comparable value. */
    record HostSnapshot(
            Map<String, String> sysctls,
            Map<Path, Boolean> fixedPaths,
            Map<Path, Boolean> kubepods,
            boolean bridge,
            List<String> mountsOfNode) {

        static HostSnapshot take() {
            Map<String, String> sysctls = new LinkedHashMap<>();
            for (String name : RealNode.SYSCTLS) {
                try {
                    sysctls.put(name, HostChanges.read(HostChanges.HostRoots.REAL.sysctl(name)));
                } catch (java.io.UncheckedIOException e) {
                    sysctls.put(name, "(unreadable)");
                }
            }
            Map<Path, Boolean> paths = new LinkedHashMap<>();
            RealNode.FIXED_PATHS.forEach(p -> paths.put(p, Files.exists(p)));
            Map<Path, Boolean> kubepods = new LinkedHashMap<>();
            new HostChanges(Path.of("/nonexistent"), HostChanges.HostRoots.REAL)
                    .hierarchies()
                    .forEach(h -> kubepods.put(h, Files.exists(h.resolve("kubepods"))));
            List<String> mounts;
            try {
                mounts = Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                        .map(line -> line.split(" ")[4])
                        .filter(m -> m.contains("kubelet") || m.contains("containerd") || m.contains("realnode"))
                        .toList();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            return new HostSnapshot(
                    sysctls, paths, kubepods, Files.exists(Path.of("/sys/class/net", RealNode.BRIDGE)), mounts);
        }
    }
}
