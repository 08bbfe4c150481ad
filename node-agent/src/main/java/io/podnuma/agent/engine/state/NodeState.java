package io.podnuma.agent.engine.state;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything the node has handed out, as one immutable value: the node shared pool and, per pod UID, its
 * assignment. This is what the checkpoint stores; the CPU and memory managers' books are derived from it.
 *
 * <p>Owner keys (used by the CPU and memory books): a pod's bubble and pod memory belong to {@code <uid>},
 * a container's own CPUs and memory to {@code <uid>/<container>}.
 */
public record NodeState(CpuSet sharedPool, SortedMap<String, PodAssignment> pods) {

    public NodeState {
        Objects.requireNonNull(sharedPool, "sharedPool");
        TreeMap<String, PodAssignment> copy = new TreeMap<>();
        for (Map.Entry<String, PodAssignment> e : pods.entrySet()) {
            if (!e.getKey().equals(e.getValue().ref().uid())) {
                throw new IllegalArgumentException(
                        "pod entry " + e.getKey() + " holds pod " + e.getValue().ref());
            }
            copy.put(e.getKey(), e.getValue());
        }
        pods = Collections.unmodifiableSortedMap(copy);
    }

    public static NodeState empty(CpuSet sharedPool) {
        return new NodeState(sharedPool, new TreeMap<>());
    }

    public static String containerOwner(String podUid, String container) {
        return podUid + "/" + container;
    }

    public Optional<PodAssignment> pod(String uid) {
        return Optional.ofNullable(pods.get(uid));
    }

    public NodeState withPod(CpuSet newSharedPool, PodAssignment pod) {
        TreeMap<String, PodAssignment> m = new TreeMap<>(pods);
        m.put(pod.ref().uid(), pod);
        return new NodeState(newSharedPool, m);
    }

    public NodeState withoutPod(CpuSet newSharedPool, String uid) {
        TreeMap<String, PodAssignment> m = new TreeMap<>(pods);
        m.remove(uid);
        return new NodeState(newSharedPool, m);
    }

    /** The CPUs a container runs on now: its own or its pod's pool, else the node shared pool. */
    public CpuSet cpusOf(PodAssignment pod, ContainerAssignment c) {
        return c.kind() == AssignmentKind.NODE_SHARED ? sharedPool : c.cpus();
    }

    /** The CPU manager's exclusive assignments: bubbles under the pod UID, node-level slices per container. */
    public SortedMap<String, CpuSet> cpuOwners() {
        TreeMap<String, CpuSet> owners = new TreeMap<>();
        for (PodAssignment pod : pods.values()) {
            if (pod.hasBubble()) {
                owners.put(pod.ref().uid(), pod.bubble());
                continue;
            }
            for (ContainerAssignment c : pod.containers()) {
                if (c.kind() == AssignmentKind.EXCLUSIVE) {
                    owners.put(containerOwner(pod.ref().uid(), c.name()), c.cpus());
                }
            }
        }
        return owners;
    }

    /** Every memory block by owner: pod budgets under the pod UID, container blocks per container. */
    public SortedMap<String, List<MemoryBlock>> memoryOwners() {
        TreeMap<String, List<MemoryBlock>> owners = new TreeMap<>();
        for (PodAssignment pod : pods.values()) {
            if (!pod.podMemory().isEmpty()) {
                owners.put(pod.ref().uid(), pod.podMemory());
            }
            for (ContainerAssignment c : pod.containers()) {
                if (!c.memory().isEmpty()) {
                    owners.put(containerOwner(pod.ref().uid(), c.name()), c.memory());
                }
            }
        }
        return owners;
    }
}
