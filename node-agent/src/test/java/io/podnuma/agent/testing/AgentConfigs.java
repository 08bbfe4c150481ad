package io.podnuma.agent.testing;

import java.util.List;

/**
 * The agent configuration (a {@code NodeAgentConfig} file) most runtime tests and the bench use: single-numa-node
 * at pod scope, the static CPU policy with a reservation, pod-level resources.
 */
public final class AgentConfigs {

    private AgentConfigs() {}

    /**
     * @param cpuReservation the {@code cpuManager} line that reserves CPUs, e.g. {@code reservedCpus: "0"}
     * @param settings further top-level lines ({@code key: value}), e.g. {@code kubeletCgroupRoot: /x}
     * @param policySettings further lines of {@code policy}, e.g. {@code admission: Evict}
     */
    public static String podScope(
            String node, String cpuReservation, List<String> settings, List<String> policySettings) {
        StringBuilder yaml = new StringBuilder("apiVersion: podnuma.io/v1alpha1\nkind: NodeAgentConfig\n")
                .append("nodeName: ")
                .append(node)
                .append('\n');
        settings.forEach(line -> yaml.append(line).append('\n'));
        yaml.append("policy:\n");
        policySettings.forEach(line -> yaml.append("  ").append(line).append('\n'));
        return yaml.append("""
                  topologyManager:
                    policy: single-numa-node
                    scope: pod
                  cpuManager:
                    policy: static
                """)
                .append("    ")
                .append(cpuReservation)
                .append('\n')
                .append("""
                  podLevelResources:
                    enabled: true
                """)
                .toString();
    }
}
