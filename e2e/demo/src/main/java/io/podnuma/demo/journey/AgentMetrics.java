package io.podnuma.demo.journey;

import java.util.List;

/** The lines of an agent's {@code /metrics} the demo shows. */
final class AgentMetrics {

    private AgentMetrics() {}

    /** What the demo shows of it: the exclusive CPUs, refusals, pin latency, NRI and the agent's conditions. */
    static List<String> excerpt(String metrics) {
        return metrics.lines()
                .filter(l -> l.startsWith("podnuma_cpu_manager_exclusive_cpu_allocation_count")
                        || l.startsWith("podnuma_topology_manager_admission_errors_total")
                        || l.startsWith("podnuma_pin_latency_seconds_count")
                        // Born pinned: the agent is containerd's NRI plugin and answered each CreateContainer.
                        || l.startsWith("podnuma_nri_connected")
                        || l.startsWith("podnuma_nri_requests_total{method=\"CreateContainer\"")
                        || (l.startsWith("podnuma_agent_condition{") && l.endsWith(" 1.0")))
                .toList();
    }
}
