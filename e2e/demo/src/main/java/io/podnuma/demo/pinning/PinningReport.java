package io.podnuma.demo.pinning;

import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.testkit.cpu.CpuList;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the pinning part of the demo saw, for its test to check.
 *
 * @param hostCpus the CPUs this host gives the sandbox
 * @param pinned every container while the agent ran, in creation order
 * @param nodeState the node's {@code NumaNodeState} at the same time
 * @param refusal the refused pod's Warning Event as {@code <reason>: <message>}, empty if none came
 * @param pinLatencyCount the agent's {@code podnuma_pin_latency_seconds_count}
 * @param exclusiveCpuCount the agent's {@code podnuma_cpu_manager_exclusive_cpu_allocation_count}
 * @param podResources the agent's answer to PodResources {@code List}
 * @param agentExitCode the agent's exit code after SIGTERM with the node unlabelled
 * @param restored every container after the agent stopped
 * @param nodeStateAfterStop the node's {@code NumaNodeState} after the agent stopped (the agent removes it)
 * @param cgroupRoot the sandbox subtree on the host (removed by then)
 * @param policyName the demo's policy, which the operator reconciled
 * @param policyStatus its status while the agent ran, as the operator aggregated it
 * @param policyGone whether the operator let the policy go after its deletion (the agent had restored the node)
 */
public record PinningReport(
        String nodeName,
        String namespace,
        String refusedPod,
        CpuList hostCpus,
        List<PinnedProcess> pinned,
        NodeStateView nodeState,
        Optional<String> refusal,
        double pinLatencyCount,
        double exclusiveCpuCount,
        ListPodResourcesResponse podResources,
        int agentExitCode,
        List<PinnedProcess> restored,
        Optional<NodeStateView> nodeStateAfterStop,
        Path cgroupRoot,
        String policyName,
        NumaResourcePolicyStatus policyStatus,
        boolean policyGone) {

    public PinningReport {
        pinned = List.copyOf(pinned);
        restored = List.copyOf(restored);
    }

    public PinnedProcess pinned(String pod, String container) {
        return find(pinned, pod, container);
    }

    public PinnedProcess restored(String pod, String container) {
        return find(restored, pod, container);
    }

    private static PinnedProcess find(List<PinnedProcess> rows, String pod, String container) {
        return rows.stream()
                .filter(r -> r.pod().equals(pod) && r.container().equals(container))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no row for " + pod + "/" + container + " in " + rows));
    }
}
