package io.podnuma.e2e.journey;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.testkit.cpu.CpuList;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where {@link HelmJourneyScenario} installs the chart and how it sees the node: the real worker node (the chart's
 * operator and the agent as pods, every container from the workload image), or processes beside kwok nodes. The
 * scenario says what a user does and what must then hold; the driver says how the node runs it.
 */
interface JourneyDriver extends AutoCloseable {

    /** Why this machine cannot run the driver, or null if it can. */
    String unavailableReason() throws Exception;

    /** Starts (once) and returns the cluster. */
    ControlPlane controlPlane() throws Exception;

    /** The node the scenario labels for the quickstart policy. */
    String node();

    /** The CPUs the node's containers may use before podnuma pins anything. */
    CpuList nodeCpus() throws Exception;

    /** The chart values this cluster needs on top of the defaults (images, API server address, host paths). */
    Map<String, Object> chartValues();

    /**
     * Called after each helm command of the scenario, once it succeeded: a driver that runs the operator itself (not
     * as the chart's Deployment) starts, rolls or stops it here, as the Deployment would. Nothing to do where the
     * chart's pods run on the node.
     */
    default void afterHelm(HelmStep step) throws Exception {}

    /** How many operator replicas the values run (the driver may run none and the operator elsewhere). */
    int operatorReplicas();

    /** Returns the node's agent pod once it is Ready, not {@code notThisUid} (the one an update replaced). */
    Pod awaitAgent(Optional<String> notThisUid) throws Exception;

    /** Creates {@code pod} and returns when its containers run: each container's process id, by name. */
    Map<String, Long> run(String namespace, Pod pod) throws Exception;

    /** The CPUs a container may run on, as the container itself sees them. */
    CpuList affinity(String namespace, String pod, String container, long pid) throws Exception;

    /** Whether the node's runtime serves NRI (the agent is then its plugin and containers are born pinned). */
    default boolean runtimeHasNri() {
        return false;
    }

    /** The agent's {@code /metrics} text. */
    String agentMetrics() throws Exception;

    /** The agent's PodResources socket on the node. */
    Path podResourcesSocket();

    /** The agent's state directory on the node (its checkpoint and socket). */
    Path agentStateDir();

    /** A Prometheus {@code scrape_configs} entry list that finds the operator and the agents. */
    String scrapeConfigs(Path kubeconfig);
}
