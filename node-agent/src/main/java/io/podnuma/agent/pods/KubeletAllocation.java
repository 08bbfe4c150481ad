package io.podnuma.agent.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether the kubelet has allocated what the pod's spec asks for. An in-place resize changes the spec first; the
 * kubelet accepts it by writing the new requests to the pod's and its containers' {@code allocatedResources}, and a
 * resize it defers or finds infeasible keeps the old ones there. The agent resizes to what the kubelet allocated, never
 * ahead of it: a budget grown before the kubelet took the CPUs from its node could outlive a resize the kubelet refused.
 */
public enum KubeletAllocation {

    /** The spec's CPU and memory requests are the kubelet's allocation, or the kubelet reports none yet. */
    AS_SPEC,

    /** The kubelet has not allocated the spec's requests (yet): a resize it deferred, refused, or is still taking. */
    BEHIND_SPEC;

    private static final List<String> COMPARED = List.of("cpu", "memory");

    /** What the pod's status says of its spec. */
    public static KubeletAllocation of(Pod pod) {
        if (pod.getSpec() == null || pod.getStatus() == null) {
            return AS_SPEC;
        }
        List<ContainerStatus> statuses = new ArrayList<>();
        Optional.ofNullable(pod.getStatus().getContainerStatuses()).ifPresent(statuses::addAll);
        Optional.ofNullable(pod.getStatus().getInitContainerStatuses()).ifPresent(statuses::addAll);
        List<Container> specs = new ArrayList<>();
        Optional.ofNullable(pod.getSpec().getContainers()).ifPresent(specs::addAll);
        Optional.ofNullable(pod.getSpec().getInitContainers()).ifPresent(specs::addAll);
        for (ContainerStatus s : statuses) {
            if (s.getAllocatedResources() == null || s.getAllocatedResources().isEmpty()) {
                continue;
            }
            Optional<Container> spec = specs.stream()
                    .filter(c -> Objects.equals(c.getName(), s.getName()))
                    .findFirst();
            if (spec.isPresent() && !same(requests(spec.get().getResources()), s.getAllocatedResources())) {
                return BEHIND_SPEC;
            }
        }
        Map<String, Quantity> podRequests = requests(pod.getSpec().getResources());
        Object allocated = pod.getStatus().getAdditionalProperties().get("allocatedResources");
        if (!podRequests.isEmpty() && allocated instanceof Map<?, ?> podAllocated && !podAllocated.isEmpty()) {
            Map<String, Quantity> parsed = new HashMap<>();
            podAllocated.forEach((k, v) -> parsed.put(String.valueOf(k), new Quantity(String.valueOf(v))));
            if (!same(podRequests, parsed)) {
                return BEHIND_SPEC;
            }
        }
        return AS_SPEC;
    }

    private static Map<String, Quantity> requests(ResourceRequirements r) {
        return r == null || r.getRequests() == null ? Map.of() : r.getRequests();
    }

    /** The same CPU and memory where both name them; a resource only one names is not a resize. */
    private static boolean same(Map<String, Quantity> spec, Map<String, Quantity> allocated) {
        for (String name : COMPARED) {
            Quantity a = spec.get(name);
            Quantity b = allocated.get(name);
            if (a != null && b != null && a.getNumericalAmount().compareTo(b.getNumericalAmount()) != 0) {
                return false;
            }
        }
        return true;
    }
}
