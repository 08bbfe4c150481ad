package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupLayout;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupVersion;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.V2KernelFiles;
import io.podnuma.agent.cgroup.watch.CgroupTreeScanner;
import io.podnuma.agent.cgroup.watch.CgroupTreeWatcher;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.agent.SampleConfigs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime on a cgroup v2 tree (a temporary directory with the unified layout and the kernel's reactions the
 * writer relies on: {@code +cpuset} delegation, effective lists), found by the real inotify watcher: the agent
 * delegates cpuset from the root down and gives each container its set, as on a v2 host. (A real v2 kernel runs
 * the writer in the QEMU guest test.)
 */
class NodeAgentV2TreeTest {

    @TempDir
    Path root;

    @TempDir
    Path stateDir;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    @Test
    void delegatesCpusetAndPinsContainersTheWatcherFinds() throws Exception {
        CpuTopology topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        CpuSet mems = RuntimeFixtures.allMems(topo);
        Files.writeString(root.resolve("cgroup.subtree_control"), "cpu memory\n");
        Files.writeString(root.resolve("cpuset.cpus.effective"), topo.onlineCpus() + "\n");
        Files.writeString(root.resolve("cpuset.mems.effective"), mems + "\n");
        CgroupLayout layout = new CgroupLayout(CgroupVersion.V2, root, root, new CgroupNaming(CgroupDriver.SYSTEMD));
        V2KernelFiles.mkdir(root.resolve(CgroupDriver.SYSTEMD.kubepodsName()));
        AgentConfig config = InMemoryAgent.podScopeConfig("v2", SampleConfigs.reservedCpus("0,64"));
        FakePods pods = new FakePods();
        NodeAgent agent = new InMemoryAgent(
                        "v2",
                        topo,
                        config,
                        layout.naming(),
                        new CgroupPinWriter(layout, new V2KernelFiles(layout)),
                        () -> scan(layout),
                        stateDir,
                        pods)
                .build();
        closeables.add(agent);
        agent.start();
        assertThat(agent.awaitReady(Duration.ofSeconds(10))).isTrue();
        closeables.add(CgroupTreeWatcher.start(layout, agent.cgroupEvents()));

        Pod budgeted = RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(0, "trader", "trader", "4"));
        Pod burstable = RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(2, "web", "web", "1"));
        pods.put(budgeted);
        pods.put(burstable);
        agent.drain();
        Map<String, Path> dirs = new java.util.TreeMap<>();
        for (Pod p : List.of(budgeted, burstable)) {
            for (var s : RuntimeFixtures.allStatuses(p)) {
                CgroupPath path = layout.naming()
                        .containerPath(new ContainerCgroup(
                                RuntimeFixtures.qos(p),
                                p.getMetadata().getUid(),
                                ContainerId.parse(s.getContainerID())));
                Path dir = root;
                for (String segment : path.segments()) {
                    dir = dir.resolve(segment);
                    if (!Files.isDirectory(dir)) {
                        V2KernelFiles.mkdir(dir); // as the runtime creates it; the agent is not told
                    }
                }
                dirs.put(p.getMetadata().getName() + "/" + s.getName(), dir);
            }
        }

        var state = agent.state();
        CpuSet bubble = state.pods().get(budgeted.getMetadata().getUid()).bubble();
        assertThat(bubble.size()).isEqualTo(4);
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() -> {
            for (var e : dirs.entrySet()) {
                CpuSet want =
                        e.getKey().startsWith("trader/") ? expected(agent, budgeted, e.getKey()) : state.sharedPool();
                assertThat(CpuSet.parse(Files.readString(e.getValue().resolve("cpuset.cpus.effective"))))
                        .as(e.getKey())
                        .isEqualTo(want);
            }
        });
        assertThat(dirs.get("trader/app").resolve("cpuset.cpus").toFile()).exists();
        assertThat(Files.readString(root.resolve("cgroup.subtree_control"))).contains("cpuset");
        assertThat(state.sharedPool().intersects(bubble)).isFalse();
    }

    private static CpuSet expected(NodeAgent agent, Pod pod, String key) {
        var assignment = agent.state().pods().get(pod.getMetadata().getUid());
        var c = assignment.container(key.substring(key.indexOf('/') + 1)).orElseThrow();
        return agent.state().cpusOf(assignment, c);
    }

    private static List<FoundContainer> scan(CgroupLayout layout) {
        try {
            return CgroupTreeScanner.scan(layout);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
