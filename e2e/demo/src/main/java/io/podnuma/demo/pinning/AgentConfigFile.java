package io.podnuma.demo.pinning;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.podnuma.testkit.agent.AgentPlacement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The node agent's {@code NodeAgentConfig} file, rendered from a {@code NumaResourcePolicy} spec the way the operator
 * renders its ConfigMap, plus the settings of one agent on one host.
 */
public final class AgentConfigFile {

    /** Which node the agent serves, under which policy, and where the kubelet's cgroups are. */
    public record Node(String nodeName, String policyName, String kubeletCgroupRoot) {}

    private AgentConfigFile() {}

    /**
     * The spec with {@code cpuManager.reservedCpus} replaced: a policy written for one instance type names that
     * machine's CPUs, and this machine has others. Other fields are kept as they are.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> withReservedCpus(Map<String, Object> spec, String reservedCpus) {
        Map<String, Object> copy = new LinkedHashMap<>(spec);
        Object cpu = spec.get("cpuManager");
        Map<String, Object> cpuManager =
                cpu instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
        cpuManager.remove("reservedCpuCount"); // the CRD allows one of the two
        cpuManager.put("reservedCpus", reservedCpus);
        copy.put("cpuManager", cpuManager);
        return copy;
    }

    public static String render(
            KubernetesSerialization yaml, Node node, AgentPlacement placement, Map<String, Object> spec) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("apiVersion", "podnuma.io/v1alpha1");
        config.put("kind", "NodeAgentConfig");
        config.put("nodeName", node.nodeName());
        config.put("policyName", node.policyName());
        config.put("kubeletCgroupRoot", node.kubeletCgroupRoot());
        config.put("stateDir", placement.stateDir().toString());
        config.put("podResourcesSocket", placement.socket().toString());
        config.put("metricsBindAddress", AgentPlacement.BIND_ADDRESS);
        config.put("metricsPort", placement.metricsPort());
        config.put("healthBindAddress", AgentPlacement.BIND_ADDRESS);
        config.put("healthPort", placement.healthPort());
        // Quick reports for a demo; the defaults (10s, 1s) suit a cluster.
        config.put("reconcilePeriod", "2s");
        config.put("statusMinInterval", "200ms");
        config.put("policy", spec);
        return yaml.asYaml(config);
    }
}
