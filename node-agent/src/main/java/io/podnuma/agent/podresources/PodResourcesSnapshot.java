package io.podnuma.agent.podresources;

import io.podnuma.agent.engine.state.NodeState;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One consistent view for PodResources answers: the engine's state, the pods on the node (the engine may hold
 * no assignment for some of them) and the allocatable resources. Immutable, so the service reads it without
 * locking and never waits for the engine.
 *
 * @param pods the node's pods in the order {@code List} reports them
 */
public record PodResourcesSnapshot(NodeState state, List<ListedPod> pods, AllocatableResources allocatable) {

    public PodResourcesSnapshot {
        Objects.requireNonNull(state, "state");
        pods = List.copyOf(pods);
        Objects.requireNonNull(allocatable, "allocatable");
        Set<String> uids = new HashSet<>();
        for (ListedPod pod : pods) {
            if (!uids.add(pod.ref().uid())) {
                throw new IllegalArgumentException("pod uid " + pod.ref().uid() + " is listed twice in the snapshot");
            }
        }
    }
}
