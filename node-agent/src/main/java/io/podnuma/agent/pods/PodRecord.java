package io.podnuma.agent.pods;

import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.watch.PodContainerIds;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.engine.pod.PodRules;
import java.util.Objects;
import java.util.Optional;

/**
 * What the agent knows about one pod of its node from the API: the engine's view of the spec (or why it could not
 * be read), its QoS class (which names its cgroup), whether it has finished, and the IDs of the containers the
 * runtime has started so far.
 *
 * @param created the creation timestamp as the API gives it (RFC 3339, so it sorts as text); empty when unknown
 * @param containerIds the runtime IDs the status gives the pod's containers
 * @param devices the devices of device plugins its containers ask for
 * @param allocation whether the kubelet has allocated what the spec asks for (a resize is followed once it has)
 */
public record PodRecord(
        PodRef ref,
        PodQos qos,
        boolean terminal,
        Optional<Pod> pod,
        Optional<String> unreadable,
        PodContainerIds containerIds,
        String created,
        DeviceRequests devices,
        KubeletAllocation allocation) {

    public PodRecord {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(qos, "qos");
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(unreadable, "unreadable");
        Objects.requireNonNull(containerIds, "containerIds");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(devices, "devices");
        Objects.requireNonNull(allocation, "allocation");
        if (pod.isPresent() == unreadable.isPresent()) {
            throw new IllegalArgumentException("pod " + ref + ": exactly one of pod and unreadable must be given");
        }
    }

    /** Reads a pod object; a spec the engine cannot read is kept with its reason rather than dropped. */
    public static PodRecord of(io.fabric8.kubernetes.api.model.Pod pod, PodMapper mapper) {
        var meta = pod.getMetadata();
        PodRef ref = new PodRef(
                meta.getUid(), meta.getNamespace() == null ? "default" : meta.getNamespace(), meta.getName());
        Optional<Pod> mapped;
        Optional<String> unreadable;
        try {
            mapped = Optional.of(mapper.map(pod));
            unreadable = Optional.empty();
        } catch (PodMappingException e) {
            mapped = Optional.empty();
            unreadable = Optional.of(e.getMessage());
        }
        var status = pod.getStatus();
        String phase = status == null ? null : status.getPhase();
        boolean terminal = "Succeeded".equals(phase) || "Failed".equals(phase);
        PodQos qos = qos(status == null ? null : status.getQosClass(), mapped);
        return new PodRecord(
                ref,
                qos,
                terminal,
                mapped,
                unreadable,
                PodContainerIds.of(pod),
                meta.getCreationTimestamp() == null ? "" : meta.getCreationTimestamp(),
                DeviceRequests.of(pod),
                KubeletAllocation.of(pod));
    }

    /** The kubelet's QoS class from the status names the cgroup; before it is set, derive it from the spec. */
    private static PodQos qos(String statusClass, Optional<Pod> pod) {
        if (statusClass != null) {
            for (PodQos q : PodQos.values()) {
                if (q.wireName().equals(statusClass)) {
                    return q;
                }
            }
        }
        return pod.map(PodRules::qos).orElse(PodQos.BURSTABLE);
    }

    /** Whether the engine should hold an assignment for this pod. */
    public boolean admissible() {
        return !terminal && pod.isPresent();
    }

    /**
     * Whether a held pod may be resized to this spec: it is readable and the kubelet has allocated it (a resize the
     * kubelet has not taken is not followed; the engine answers {@code Unchanged} when nothing changed).
     */
    public boolean resizable() {
        return pod.isPresent() && allocation == KubeletAllocation.AS_SPEC;
    }

    /** The container a runtime ID belongs to (its current run or the previous one), when the status names it. */
    public Optional<String> containerNamed(ContainerId id) {
        return containerIds.nameOf(id);
    }

    /** The runtime ID of a container's current run, when the status has one. */
    public Optional<ContainerId> containerId(String container) {
        return containerIds.idOf(container);
    }
}
