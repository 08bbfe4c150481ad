package io.podnuma.agent.podresources;

import io.podnuma.agent.engine.pod.Container;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodRef;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A pod on the node as PodResources lists it, whether or not the engine holds an assignment for it.
 *
 * @param containers the containers PodResources reports, in the kubelet's order: restartable sidecars in spec
 *     order, then app containers; standard init and ephemeral containers are never reported
 */
public record ListedPod(PodRef ref, List<String> containers) {

    public ListedPod {
        Objects.requireNonNull(ref, "ref");
        containers = List.copyOf(containers);
        Set<String> seen = new HashSet<>();
        for (String c : containers) {
            if (!seen.add(c)) {
                throw new IllegalArgumentException("pod " + ref + ": container " + c + " is listed twice");
            }
        }
    }

    public static ListedPod of(Pod pod) {
        List<String> names = pod.allContainers().stream()
                .filter(c -> c.type().longRunning())
                .map(Container::name)
                .toList();
        return new ListedPod(pod.ref(), names);
    }
}
