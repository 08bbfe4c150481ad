package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import io.podnuma.testkit.agent.SampleConfigs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The host of the in-memory runtime tests that create container cgroups one by one: systemd naming, the cgroups
 * that exist (what the agent's scan finds) and their cpusets ({@link FakeCgroups}).
 */
final class FakeHost {

    final CgroupNaming naming = new CgroupNaming(CgroupDriver.SYSTEMD);
    final FakeCgroups cgroups = new FakeCgroups(new Random(1));
    private final Map<CgroupPath, ContainerCgroup> present = new ConcurrentHashMap<>();

    /** The cgroup of the pod's first container, as the runtime creates it: holding what it inherits. */
    CgroupPath create(Pod pod, Pin parentSets) {
        var status = RuntimeFixtures.allStatuses(pod).getFirst();
        ContainerCgroup c = new ContainerCgroup(
                RuntimeFixtures.qos(pod), pod.getMetadata().getUid(), ContainerId.parse(status.getContainerID()));
        CgroupPath path = naming.containerPath(c);
        cgroups.actual.put(path, parentSets);
        present.put(path, c);
        return path;
    }

    ContainerCgroup cgroup(CgroupPath path) {
        return present.get(path);
    }

    /**
     * An agent on this host (pod scope, two reserved CPUs), not started.
     *
     * @param writer the cpuset writer: {@link #cgroups}, or a wrapper around it
     */
    NodeAgent agent(String node, CpuTopology topo, PodSource pods, PinWriter writer, Path stateDir, Duration syncLog) {
        return new InMemoryAgent(
                        node,
                        topo,
                        InMemoryAgent.podScopeConfig(node, SampleConfigs.reservedCpuCount(2)),
                        naming,
                        writer,
                        this::scan,
                        stateDir,
                        pods)
                .withSyncLog(syncLog)
                .build();
    }

    private List<FoundContainer> scan() {
        return present.entrySet().stream()
                .map(e -> new FoundContainer(e.getValue(), e.getKey()))
                .toList();
    }
}
