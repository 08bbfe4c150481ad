package io.podnuma.agent.hosttest;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.testing.TestResources;
import io.podnuma.controlplane.ControlPlane;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pods bound to a kwok node for the agent's ITs, and the container cgroups their status names. */
public final class KwokPods {

    private KwokPods() {}

    /** A Burstable pod with one container asking for 100m. */
    public static Pod burstable(String node, String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("web")
                .withImage("nginx")
                .withNewResources()
                .addToRequests("cpu", new Quantity("100m"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    /** A Guaranteed pod with a one-CPU pod budget: app container {@code engine} and native sidecar {@code proxy}. */
    public static Pod budgeted(String node, String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withResources(TestResources.guaranteed("1", "256Mi"))
                .addNewInitContainer()
                .withName("proxy")
                .withImage("envoy")
                .withRestartPolicy("Always")
                .endInitContainer()
                .addNewContainer()
                .withName("engine")
                .withImage("trader")
                .endContainer()
                .endSpec()
                .build();
    }

    /** Creates the pod and waits until kwok reports it Running with a container ID for every container. */
    public static Pod createRunning(ControlPlane cp, String namespace, Pod pod) {
        cp.client().pods().inNamespace(namespace).resource(pod).create();
        return await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> cp.client()
                                .pods()
                                .inNamespace(namespace)
                                .withName(pod.getMetadata().getName())
                                .get(),
                        p -> p != null
                                && p.getStatus() != null
                                && "Running".equals(p.getStatus().getPhase())
                                && p.getStatus().getContainerStatuses().stream()
                                        .allMatch(s -> s.getContainerID() != null));
    }

    /** By container name (init containers first), the cgroup the runtime makes for it. */
    public static Map<String, ContainerCgroup> cgroups(Pod pod) {
        PodQos qos = qos(pod);
        List<ContainerStatus> statuses = new ArrayList<>(pod.getStatus().getInitContainerStatuses());
        statuses.addAll(pod.getStatus().getContainerStatuses());
        Map<String, ContainerCgroup> out = new LinkedHashMap<>();
        for (ContainerStatus s : statuses) {
            out.put(
                    s.getName(),
                    new ContainerCgroup(qos, pod.getMetadata().getUid(), ContainerId.parse(s.getContainerID())));
        }
        return out;
    }

    public static PodQos qos(Pod pod) {
        return switch (pod.getStatus().getQosClass()) {
            case "Guaranteed" -> PodQos.GUARANTEED;
            case "BestEffort" -> PodQos.BEST_EFFORT;
            default -> PodQos.BURSTABLE;
        };
    }
}
