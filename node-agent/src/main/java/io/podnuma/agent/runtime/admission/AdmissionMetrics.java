package io.podnuma.agent.runtime.admission;

import io.podnuma.agent.engine.node.AdmissionResult;
import io.podnuma.agent.engine.pod.Container;
import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.Pod;
import io.podnuma.agent.engine.pod.PodRules;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.metrics.AlignmentBoundary;
import io.podnuma.agent.metrics.AlignmentScope;
import io.podnuma.agent.metrics.AllocationSource;
import java.time.Duration;

/** Turns one admission into the resource-manager metrics (spec §9), as the kubelet counts them. */
final class AdmissionMetrics {

    private AdmissionMetrics() {}

    static void record(AgentMetrics metrics, Pod pod, AdmissionResult result, Duration took) {
        boolean admitted = result instanceof AdmissionResult.Admitted;
        metrics.topologyAdmission(took, admitted);
        boolean wantsCpus = PodRules.cpuBudget(pod) > 0 && pod.hasPodLevelResources()
                || pod.allContainers().stream()
                        .filter(c -> c.type() != ContainerType.EPHEMERAL)
                        .anyMatch(c -> PodRules.exclusiveCpus(pod, c) > 0);
        boolean wantsMemory = pod.allContainers().stream()
                .filter(c -> c.type() != ContainerType.EPHEMERAL)
                .anyMatch((Container c) -> PodRules.exclusiveMemory(pod, c));
        if (!(result instanceof AdmissionResult.Admitted a)) {
            if (wantsCpus) {
                metrics.cpuPinning(false);
                metrics.resourceAllocationFailed(
                        pod.hasPodLevelResources() ? AllocationSource.POD : AllocationSource.NODE);
            }
            if (wantsMemory) {
                metrics.memoryPinning(false);
            }
            return;
        }
        PodAssignment p = a.pod();
        boolean anyCpus = p.hasBubble();
        boolean anyMemory = !p.podMemory().isEmpty();
        if (p.hasBubble()) {
            metrics.resourceAllocated("cpu", AllocationSource.NODE);
        }
        if (!p.podMemory().isEmpty()) {
            metrics.resourceAllocated("memory", AllocationSource.NODE);
        }
        AllocationSource containerSource = p.hasBubble() ? AllocationSource.POD : AllocationSource.NODE;
        for (ContainerAssignment c : p.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE) {
                anyCpus = true;
                metrics.resourceAllocated("cpu", containerSource);
            }
            if (!c.memory().isEmpty()) {
                anyMemory = true;
                metrics.resourceAllocated("memory", containerSource);
            }
        }
        if (anyCpus) {
            metrics.cpuPinning(true);
        }
        if (anyMemory) {
            metrics.memoryPinning(true);
        }
        if (anyCpus && p.numaAffinity().count() == 1) {
            metrics.alignedCompute(
                    p.hasBubble() ? AlignmentScope.POD : AlignmentScope.CONTAINER, AlignmentBoundary.NUMA_NODE);
        }
    }
}
