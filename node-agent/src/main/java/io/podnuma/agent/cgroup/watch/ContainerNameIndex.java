package io.podnuma.agent.cgroup.watch;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.ContainerId;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The latest {@link PodContainerIds} of every pod on the node, by pod UID: fed by the pod informer, read by whoever
 * handles a noticed cgroup (pod UID + container ID → container name). Safe to use from several threads.
 */
public final class ContainerNameIndex {

    private final ConcurrentMap<String, PodContainerIds> pods = new ConcurrentHashMap<>();

    /** Records the pod's status as it is now; returns what it names. */
    public PodContainerIds update(Pod pod) {
        PodContainerIds ids = PodContainerIds.of(pod);
        pods.put(ids.podUid(), ids);
        return ids;
    }

    public void remove(String podUid) {
        pods.remove(podUid);
    }

    /** The container of pod {@code podUid} whose run has ID {@code id}; empty when the status does not name it yet. */
    public Optional<String> nameOf(String podUid, ContainerId id) {
        PodContainerIds ids = pods.get(podUid);
        return ids == null ? Optional.empty() : ids.nameOf(id);
    }

    /** The ID of the current run of the named container; empty when unknown. */
    public Optional<ContainerId> idOf(String podUid, String containerName) {
        PodContainerIds ids = pods.get(podUid);
        return ids == null ? Optional.empty() : ids.idOf(containerName);
    }

    public Optional<PodContainerIds> get(String podUid) {
        return Optional.ofNullable(pods.get(podUid));
    }
}
