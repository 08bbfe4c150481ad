package io.podnuma.operator.render;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The per-policy ServiceMonitor of the agents, rendered when the operator is asked to (and applied only where the
 * cluster serves {@code monitoring.coreos.com}).
 *
 * @param extraLabels added to the ServiceMonitor's own labels: kube-prometheus-stack selects monitors by its release
 *     label
 */
public record AgentServiceMonitor(Map<String, String> extraLabels) {

    public AgentServiceMonitor {
        extraLabels = Collections.unmodifiableMap(new TreeMap<>(extraLabels));
        AgentLabels.require("ServiceMonitor labels", extraLabels, AgentLabels.RESERVED);
    }
}
