package io.podnuma.testkit.pods;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.host.PodContainer;
import io.podnuma.testkit.host.QosClass;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Pods on kwok nodes: created and waited for until Running, and the containers their status names. */
public final class RunningPods {

    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final Duration MANY_TIMEOUT = Duration.ofMinutes(3);

    private RunningPods() {}

    /**
     * Creates the pod and waits until kwok reports it Running with a container ID for every container.
     *
     * @throws IllegalStateException with the pod's last status when that does not happen within a minute
     */
    public static Pod createRunning(ControlPlane cp, String namespace, Pod pod) throws InterruptedException {
        cp.client().pods().inNamespace(namespace).resource(pod).create();
        String name = pod.getMetadata().getName();
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Pod now = null;
        while (System.nanoTime() < deadline) {
            now = cp.client().pods().inNamespace(namespace).withName(name).get();
            if (runningWithIds(now)) {
                return now;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new IllegalStateException("pod " + namespace + "/" + name + " was not Running with container IDs within "
                + TIMEOUT + " (is kwok running?); last status: " + (now == null ? "none" : now.getStatus()));
    }

    /**
     * Creates every pod (all in {@code namespace}) and waits until kwok reports each Running with its container IDs.
     *
     * @return the pods as the API server has them then, in the order given
     * @throws IllegalStateException naming how many were Running when three minutes are up
     */
    public static List<Pod> createAllRunning(ControlPlane cp, String namespace, List<Pod> pods)
            throws InterruptedException {
        for (Pod p : pods) {
            cp.client().pods().inNamespace(namespace).resource(p).create();
        }
        long deadline = System.nanoTime() + MANY_TIMEOUT.toNanos();
        while (true) {
            Map<String, Pod> byName = new LinkedHashMap<>();
            for (Pod p : cp.client().pods().inNamespace(namespace).list().getItems()) {
                byName.put(p.getMetadata().getName(), p);
            }
            List<Pod> now = new ArrayList<>();
            for (Pod p : pods) {
                Pod current = byName.get(p.getMetadata().getName());
                if (current != null && runningWithIds(current)) {
                    now.add(current);
                }
            }
            if (now.size() == pods.size()) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + now.size() + " of " + pods.size() + " pods in " + namespace
                        + " were Running with container IDs after " + MANY_TIMEOUT + " (is kwok running?)");
            }
            TimeUnit.MILLISECONDS.sleep(500);
        }
    }

    /**
     * What the kubelet and containerd do for a pod on a kwok node whose containers live on {@code host}: creates it,
     * waits until it is Running ({@link #createRunning}), then starts a cgroup and a process for each container.
     *
     * @return each container's process id, by container name (init containers first)
     */
    public static Map<String, Long> runOn(ControlPlane cp, KubeletLikeHost host, String namespace, Pod pod)
            throws IOException, InterruptedException {
        Pod running = createRunning(cp, namespace, pod);
        Map<String, Long> pids = new LinkedHashMap<>();
        for (Map.Entry<String, PodContainer> c : containers(running).entrySet()) {
            pids.put(c.getKey(), host.startContainer(c.getValue()));
        }
        return pids;
    }

    /** Whether the pod is Running and its status has a container ID for every container it lists. */
    public static boolean runningWithIds(Pod p) {
        return p != null
                && p.getStatus() != null
                && "Running".equals(p.getStatus().getPhase())
                && p.getStatus().getContainerStatuses().size()
                        == p.getSpec().getContainers().size()
                && p.getStatus().getContainerStatuses().stream().allMatch(s -> s.getContainerID() != null);
    }

    /** The pod's {@code status.qosClass}. */
    public static QosClass qos(Pod pod) {
        return QosClass.of(pod.getStatus().getQosClass());
    }

    /** By container name (init containers first), the container the runtime runs for it. */
    public static Map<String, PodContainer> containers(Pod pod) {
        QosClass qos = qos(pod);
        List<ContainerStatus> statuses = new ArrayList<>(pod.getStatus().getInitContainerStatuses());
        statuses.addAll(pod.getStatus().getContainerStatuses());
        Map<String, PodContainer> out = new LinkedHashMap<>();
        for (ContainerStatus s : statuses) {
            out.put(s.getName(), PodContainer.fromStatus(qos, pod.getMetadata().getUid(), s.getContainerID()));
        }
        return out;
    }

    /** The container named {@code container} of the pod. */
    public static PodContainer container(Pod pod, String container) {
        PodContainer c = containers(pod).get(container);
        if (c == null) {
            throw new IllegalArgumentException(
                    "pod " + pod.getMetadata().getName() + " has no container " + container + " in its status");
        }
        return c;
    }
}
