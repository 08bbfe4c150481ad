package io.podnuma.operator.render;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.util.Optional;

/**
 * What one policy's agents are made of.
 *
 * @param configHash {@code sha256:<hex>} of the agent's config file: on the pod template, so any change rolls
 * @param policyHash what the agents report in {@code NumaNodeState} once they run this policy
 * @param serviceMonitor empty when the settings ask for none; the shell applies it only where the cluster has
 *     {@code monitoring.coreos.com}
 */
public record RenderedAgent(
        ConfigMap configMap,
        DaemonSet daemonSet,
        Service service,
        Optional<GenericKubernetesResource> serviceMonitor,
        String configHash,
        String policyHash) {}
