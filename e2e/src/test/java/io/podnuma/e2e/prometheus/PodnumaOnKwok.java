package io.podnuma.e2e.prometheus;

import io.podnuma.controlplane.ControlPlane;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.kwok.LoopbackNode;
import io.podnuma.testkit.operator.OperatorProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Both components as the processes their images run, on the local control plane: a kwok node, a policy selecting it,
 * the real operator reconciling that policy (so it renders the agent DaemonSet and exports the policy's node gauges)
 * and the real agent for the node on a kubelet-like cgroup host of this machine. The operator is told the agent's
 * ports, so the DaemonSet it renders names the ports the agent process listens on.
 */
final class PodnumaOnKwok {

    static final String NAMESPACE = "podnuma-prom";
    static final String GROUP_LABEL = "podnuma.it/prometheus";
    /** The kwok node's InternalIP, so host-network pods on it have the address the processes listen on. */
    static final String NODE_IP = LoopbackNode.ADDRESS;

    private static final Duration READY = Duration.ofSeconds(90);

    final String node;
    final String policy;
    final AgentProcess agent;
    final OperatorProcess operator;
    private final KubeletLikeHost host;

    private PodnumaOnKwok(
            String node, String policy, KubeletLikeHost host, AgentProcess agent, OperatorProcess operator) {
        this.node = node;
        this.policy = policy;
        this.host = host;
        this.agent = agent;
        this.operator = operator;
    }

    /** Why the agent cannot run here (no cgroup v1 cpuset hierarchy to play a kubelet's, not root), if so. */
    static Optional<String> unavailableReason() throws IOException {
        return KubeletLikeHost.unavailableReason();
    }

    /** Starts everything for a node and policy named after {@code id}; returns once both are ready. */
    static PodnumaOnKwok start(ControlPlane cp, Path dir, String id) throws Exception {
        cp.installCrds(GeneratedCrds.numaResourcePolicies(), GeneratedCrds.numaNodeStates());
        cp.ensureNamespace(NAMESPACE);
        String policy = "prom-" + id;
        // The node is this machine: host-network pods on it (the agent's) get 127.0.0.1, where the agent listens.
        String node = LoopbackNode.ensure(
                cp, "prom-" + id, Map.of(GROUP_LABEL, id), Map.of("cpu", "2", "memory", "8Gi", "pods", "110"));
        KubeletLikeHost host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS, "prom" + id);
        AgentProcess agent = null;
        OperatorProcess operator = null;
        try {
            agent = AgentProcess.prepare(dir.resolve("agent"), cp.kubeconfig());
            agent.configure(SampleConfigs.podScope(node, SampleConfigs.reservedCpus("0"))
                    .policyName(policy)
                    .kubeletCgroupRoot(host.kubeletCgroupRoot())
                    .reconcilePeriod("2s")
                    .build());
            agent.start();
            agent.awaitReady(READY);

            Path config = dir.resolve("operator.yaml");
            Files.writeString(config, """
                    namespace: %s
                    agentImage: podnuma.local/node-agent:prom
                    leaseName: podnuma-operator-prom-%s
                    agentMetricsPort: %d
                    agentHealthPort: %d
                    """.formatted(
                            NAMESPACE,
                            id,
                            agent.placement().metricsPort(),
                            agent.placement().healthPort()));
            operator =
                    OperatorProcess.start(dir, "operator-" + id, cp.kubeconfig(), Map.of("config", config.toString()));
            operator.awaitReady(READY);
            NumaResourcePolicySpec sample =
                    SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, false);
            cp.client()
                    .resource(new NumaResourcePolicy(policy, SampleConfigs.selecting(sample, GROUP_LABEL, id)))
                    .serverSideApply();
            return new PodnumaOnKwok(node, policy, host, agent, operator);
        } catch (Exception | Error e) {
            closeAll(cp, policy, node, host, agent, operator);
            throw e;
        }
    }

    /** Stops both processes, deletes the policy and the node, and removes the cgroup host. */
    void stop(ControlPlane cp) throws Exception {
        closeAll(cp, policy, node, host, agent, operator);
    }

    private static void closeAll(
            ControlPlane cp,
            String policy,
            String node,
            KubeletLikeHost host,
            AgentProcess agent,
            OperatorProcess operator)
            throws Exception {
        cp.client().resources(NumaResourcePolicy.class).withName(policy).delete();
        if (operator != null) {
            operator.close();
        }
        if (agent != null) {
            agent.close();
        }
        cp.kubectl("delete", "node", node, "--wait=false", "--ignore-not-found");
        host.close();
    }
}
