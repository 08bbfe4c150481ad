package io.podnuma.agent.engine.pod;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A pod as the engine sees it: identity, the optional pod-level budget and its containers.
 *
 * @param podResources {@code pod.spec.resources} (or the budget annotation), empty when the pod has none
 * @param initContainers standard init containers and sidecars, in spec order
 * @param appContainers regular containers, in spec order
 * @param ephemeralContainers debug containers
 */
public record Pod(
        PodRef ref,
        Optional<Resources> podResources,
        List<Container> initContainers,
        List<Container> appContainers,
        List<Container> ephemeralContainers) {

    public Pod {
        podResources = podResources == null ? Optional.empty() : podResources;
        initContainers = List.copyOf(initContainers);
        appContainers = List.copyOf(appContainers);
        ephemeralContainers = List.copyOf(ephemeralContainers);
        Set<String> names = new HashSet<>();
        for (Container c : initContainers) {
            check(ref, c, c.type() == ContainerType.INIT || c.type() == ContainerType.SIDECAR, "init", names);
        }
        for (Container c : appContainers) {
            check(ref, c, c.type() == ContainerType.APP, "app", names);
        }
        for (Container c : ephemeralContainers) {
            check(ref, c, c.type() == ContainerType.EPHEMERAL, "ephemeral", names);
        }
    }

    private static void check(PodRef ref, Container c, boolean typeFits, String list, Set<String> names) {
        if (!typeFits) {
            throw new IllegalArgumentException(
                    "pod " + ref + ": container " + c.name() + " of type " + c.type() + " is in the " + list + " list");
        }
        if (!names.add(c.name())) {
            throw new IllegalArgumentException("pod " + ref + ": container name " + c.name() + " is used twice");
        }
    }

    /** Init containers and sidecars in order, then app containers, then ephemeral containers. */
    public List<Container> allContainers() {
        List<Container> all = new ArrayList<>(initContainers);
        all.addAll(appContainers);
        all.addAll(ephemeralContainers);
        return all;
    }

    /** Whether {@code pod.spec.resources} names CPU or memory: QoS and budgets then come from it alone. */
    public boolean hasPodLevelResources() {
        return podResources.map(Resources::hasCpuOrMemory).orElse(false);
    }

    /** The same pod with its pod-level budget ignored (a node that does not honour pod-level resources). */
    public Pod withoutPodResources() {
        return new Pod(ref, Optional.empty(), initContainers, appContainers, ephemeralContainers);
    }
}
