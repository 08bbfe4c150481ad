package io.podnuma.e2e.pinning;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.cpu.ProcessAffinity;
import java.util.Map;

/**
 * How {@link PinningScenario} runs podnuma's agent for one node and where that node's containers run. The scenario
 * only says what happens (a node joins a policy, pods come, the agent restarts, the node leaves) and what must then
 * hold; each driver says how: the agent in the test JVM or as a {@code node-agent run} process beside a kwok node and a
 * kubelet-like cgroup host, or the agent image as a DaemonSet pod on the real worker node, where the kubelet and
 * containerd make the containers.
 */
public interface PinningDriver extends AutoCloseable {

    /** Why this machine cannot run the driver (e.g. no cgroup v1 cpuset hierarchy, not root), or null if it can. */
    String unavailableReason() throws Exception;

    /** The control plane the node is registered with. */
    ControlPlane controlPlane() throws Exception;

    /** Makes (kwok) or takes (the real node) a node with the policy's label; returns its name. */
    String joinNode(String id, String policyName) throws Exception;

    /** The CPUs the node's containers may use before podnuma pins anything (the host's, as under policy none). */
    String nodeCpus() throws Exception;

    /** Starts the node's agent under {@code policyName} with CPU 0 reserved; returns when it is ready. */
    void startAgent(String node, String policyName) throws Exception;

    /**
     * Creates {@code pod} (bound to the node) and returns when its containers run: kwok has no kubelet, so the
     * driver marks it Running and starts a cgroup and a process per container as containerd would; on the real node
     * the kubelet does all of it.
     *
     * @return each container's process id, by container name
     */
    Map<String, Long> run(String namespace, Pod pod) throws Exception;

    /** The CPUs a container may run on, as the container itself sees them (by default: its process's). */
    default CpuList affinity(String namespace, String pod, String container, long pid) throws Exception {
        return ProcessAffinity.allowedCpus(pid);
    }

    /** The agent's {@code /metrics} text. */
    String metrics() throws Exception;

    /** Stops the agent and starts a new one as a rolling update does (SIGTERM, label kept): pins stay. */
    void restartAgent() throws Exception;

    /**
     * Takes the node out of the policy: on kwok the scenario's part of the operator (the label goes); on the real node
     * the node loses the label the policy selects it by, and the operator takes its {@code podnuma.io/policy} off.
     */
    void leaveNode(String node) throws Exception;

    /**
     * Returns once the agent has stopped after the node left the policy (SIGTERM as the kubelet sends it; on the real
     * node the DaemonSet controller deletes the pod when the label goes): it decides itself whether to give back.
     */
    void stopAgent() throws Exception;
}
