package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podnuma.agent.testing.AgentConfigs;
import io.podnuma.testkit.host.PodContainer;
import io.podnuma.testkit.host.QosClass;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the crash and outage tests share: the kinds of pods they churn, the agent configuration they run under, and
 * a pod's container cgroups once kwok reports it Running (empty before, so a churn can poll without waiting).
 */
final class CrashTestSetup {

    static final String POLICY = "it-policy";

    /** The kinds the tests mix; on a 2-CPU node with CPU 0 reserved only one Guaranteed pod can hold CPU 1. */
    enum Kind {
        /** 100m, no limit: the node shared pool. */
        BURSTABLE,
        /** Guaranteed with a 1-CPU pod budget, a native sidecar and an app container sharing the bubble. */
        POD_BUDGET,
        /** Guaranteed, one container with 1 CPU (no pod budget): a container-level exclusive CPU. */
        CPU_CONTAINER;

        boolean guaranteed() {
            return this != BURSTABLE;
        }
    }

    private CrashTestSetup() {}

    /**
     * The agent configuration of these tests: static CPUs with CPU 0 reserved, single-numa-node at pod scope,
     * pod-level resources, and the kubelet's cgroup root pointing at the test's private subtree.
     */
    static String agentConfig(String node, Path privateRoot) {
        return AgentConfigs.podScope(
                node,
                "reservedCpus: \"0\"",
                List.of(
                        "policyName: " + POLICY,
                        "kubeletCgroupRoot: /" + privateRoot.getFileName(),
                        "reconcilePeriod: 1s",
                        "statusMinInterval: 200ms"),
                List.of());
    }

    static Pod pod(Kind kind, String node, String name) {
        return switch (kind) {
            case BURSTABLE -> SamplePods.burstable(node, name);
            case POD_BUDGET -> SamplePods.budgeted(node, name);
            case CPU_CONTAINER ->
                new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("worker")
                        .withImage("worker")
                        .withResources(SamplePods.guaranteed("1", "128Mi"))
                        .endContainer()
                        .endSpec()
                        .build();
        };
    }

    /**
     * The cgroups of every container of a pod, by container name, once its status is Running and names every
     * container with an ID; empty before.
     */
    static Optional<Map<String, PodContainer>> containers(Pod pod) {
        if (pod == null
                || pod.getStatus() == null
                || !"Running".equals(pod.getStatus().getPhase())
                || pod.getStatus().getQosClass() == null) {
            return Optional.empty();
        }
        List<ContainerStatus> statuses = new ArrayList<>(pod.getStatus().getInitContainerStatuses());
        statuses.addAll(pod.getStatus().getContainerStatuses());
        int expected = pod.getSpec().getInitContainers().size()
                + pod.getSpec().getContainers().size();
        if (statuses.size() != expected || statuses.stream().anyMatch(s -> s.getContainerID() == null)) {
            return Optional.empty();
        }
        QosClass qos = "Guaranteed".equals(pod.getStatus().getQosClass()) ? QosClass.GUARANTEED : QosClass.BURSTABLE;
        Map<String, PodContainer> out = new TreeMap<>();
        for (ContainerStatus s : statuses) {
            out.put(s.getName(), PodContainer.fromStatus(qos, pod.getMetadata().getUid(), s.getContainerID()));
        }
        return Optional.of(out);
    }
}
