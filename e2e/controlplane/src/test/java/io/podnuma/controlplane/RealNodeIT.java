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
import java.util.List;
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
        assertThat(HostSnapshot.processesMentioning(runDir.toString())).isEmpty();
        assertThat(after.leftoversOf(runDir, before)).isEmpty();
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
}
