package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/** Container cgroups with their cpusets; a write may be made to fail. */
final class FakeCgroups implements PinWriter {
    final Map<CgroupPath, Pin> actual = new ConcurrentHashMap<>();
    final Map<CgroupPath, Boolean> touched = new ConcurrentHashMap<>();
    volatile double failureRate;
    /** Containers whose every write fails. */
    final Set<CgroupPath> failing = ConcurrentHashMap.newKeySet();

    /** Called with each write before it is made (a test's check of the moment). */
    volatile BiConsumer<CgroupPath, Pin> beforeWrite = (path, pin) -> {};

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
        beforeWrite.accept(container, pin);
        if (failing.contains(container) || failureRate > 0 && rnd.nextDouble() < failureRate) {
            failures++;
            throw new CgroupWriteException(Path.of("/" + container), "injected failure");
        }
        boolean changed = !pin.equals(actual.put(container, pin));
        touched.put(container, true);
        return changed;
    }

    /**
     * The cgroups of a running pod's containers (as its status names them), each with {@code pin}: what the scan of
     * the host finds.
     */
    List<FoundContainer> create(Pod running, CgroupNaming naming, Pin pin) {
        List<FoundContainer> found = new ArrayList<>();
        for (var s : RuntimeFixtures.allStatuses(running)) {
            ContainerCgroup c = new ContainerCgroup(
                    RuntimeFixtures.qos(running),
                    running.getMetadata().getUid(),
                    ContainerId.parse(s.getContainerID()));
            CgroupPath path = naming.containerPath(c);
            actual.put(path, pin);
            found.add(new FoundContainer(c, path));
        }
        return found;
    }

    /** Writes failed so far (injected ones), read from any thread. */
    synchronized int failedWrites() {
        return failures;
    }

    @Override
    public Optional<Pin> read(CgroupPath container) {
        return Optional.ofNullable(actual.get(container));
    }

    @Override
    public void removeQuota(CgroupPath container) {}
}
