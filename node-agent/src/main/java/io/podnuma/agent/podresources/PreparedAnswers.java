package io.podnuma.agent.podresources;

import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResources;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The answers that depend on one snapshot alone (no kubelet devices), built once for it: the whole {@code List}
 * answer, each pod's {@code Get} answer by namespace and name, and {@code GetAllocatableResources}. Immutable; a
 * call that finds the snapshot it was built from only looks up (the messages are the same instances every time,
 * so their serialized form can be kept too, see {@link SerializedOnce}).
 */
record PreparedAnswers(
        PodResourcesSnapshot snapshot,
        ListPodResourcesResponse list,
        Map<PodName, Pod> pods,
        AllocatableResourcesResponse allocatable) {

    /** A pod's key for {@code Get}. */
    record PodName(String namespace, String name) {}

    /** A listed pod and its answer without devices. */
    record Pod(ListedPod listed, PodResources answer) {}

    PreparedAnswers {
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(list, "list");
        pods = Map.copyOf(pods);
        Objects.requireNonNull(allocatable, "allocatable");
    }

    static PreparedAnswers of(PodResourcesSnapshot snapshot) {
        ListPodResourcesResponse.Builder list = ListPodResourcesResponse.newBuilder();
        Map<PodName, Pod> pods = new HashMap<>();
        for (ListedPod listed : snapshot.pods()) {
            PodResources answer = PodResourcesAnswers.pod(snapshot, listed, DeviceAssignments.NONE);
            list.addPodResources(answer);
            // The first pod of that name in the snapshot's order, as PodResourcesAnswers.find picks it.
            pods.putIfAbsent(new PodName(listed.ref().namespace(), listed.ref().name()), new Pod(listed, answer));
        }
        return new PreparedAnswers(snapshot, list.build(), pods, PodResourcesAnswers.allocatable(snapshot, List.of()));
    }

    Optional<Pod> pod(String namespace, String name) {
        return Optional.ofNullable(pods.get(new PodName(namespace, name)));
    }
}
