package io.podnuma.e2e.pinning;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * How {@link PinningScenario} runs podnuma's agent for one node and where that node's containers run. The scenario
 * only says what happens (a node joins a policy, pods come, the node leaves) and what must then hold; each driver
 * says how: the agent in the test JVM or as a {@code node-agent run} process beside kwok and a kubelet-like cgroup
 * host, and (a later driver) the real worker node with the agent as a DaemonSet pod and the kubelet making the
 * containers.
 */
public interface PinningDriver extends AutoCloseable {

    /** Why this machine cannot run the driver (e.g. no cgroup v1 cpuset hierarchy, not root), or null if it can. */
    String unavailableReason() throws Exception;

    /** The CPUs the node's containers may use before podnuma pins anything (the host's, as under policy none). */
    String nodeCpus();

    /** Starts the node's agent under {@code policyName} with CPU 0 reserved; returns when it is ready. */
    void startAgent(String node, String policyName) throws Exception;

    /**
     * Runs the containers of a pod that is Running with container IDs (kwok: a cgroup and a real process each, as
     * containerd makes them; the real node: the kubelet already did).
     *
     * @return each container's process id, by container name
     */
    Map<String, Long> runContainers(Pod running) throws Exception;

    /** The agent's {@code /metrics} text. */
    String metrics() throws Exception;

    /** Stops the agent as the kubelet stops a DaemonSet pod (SIGTERM): it decides itself whether to give back. */
    void stopAgent() throws Exception;
}
