package io.podnuma.e2e.pinning;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.pods.RunningPods;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The node is a kwok node and its containers live on a kubelet-like cgroup v1 host of this machine; how the agent
 * runs is the subclass's part.
 */
abstract class KwokHostDriver implements PinningDriver {

    protected final ControlPlane cp;
    protected final Path workDir;
    private KubeletLikeHost host;
    private String node;

    KwokHostDriver(ControlPlane cp, Path workDir) {
        this.cp = cp;
        this.workDir = workDir;
    }

    @Override
    public String unavailableReason() throws IOException {
        Optional<String> reason = KubeletLikeHost.unavailableReason();
        if (reason.isPresent()) {
            return reason.get();
        }
        CpuList cpus = CpuList.parse(Files.readString(KubeletLikeHost.CPUSET.resolve("cpuset.effective_cpus")));
        return cpus.size() < 2 ? "one CPU (" + cpus + "): the scenario reserves one and pins a pod to another" : null;
    }

    @Override
    public ControlPlane controlPlane() {
        return cp;
    }

    @Override
    public String joinNode(String id, String policyName) throws IOException {
        node = "e2e-" + id;
        cp.ensureNode(
                node,
                Map.of("podnuma.io/policy", policyName),
                Map.of("cpu", Integer.toString(host().cpus().size()), "memory", "8Gi", "pods", "110"));
        return node;
    }

    @Override
    public void leaveNode(String node) {
        cp.kubectl("label", "node", node, "podnuma.io/policy-").assertSuccess();
    }

    protected KubeletLikeHost host() throws IOException {
        if (host == null) {
            host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS, "e2e");
        }
        return host;
    }

    @Override
    public String nodeCpus() throws IOException {
        return host().cpus().toString();
    }

    /** The agent's config for this node: what the operator renders from the policy, plus this host's places. */
    protected NodeAgentConfig config(String node, String policyName) throws IOException {
        return SampleConfigs.podScope(node, SampleConfigs.reservedCpus("0"))
                .policyName(policyName)
                .kubeletCgroupRoot(host().kubeletCgroupRoot())
                .reconcilePeriod("2s")
                .statusMinInterval("200ms")
                .build();
    }

    @Override
    public Map<String, Long> run(String namespace, Pod pod) throws IOException, InterruptedException {
        return RunningPods.runOn(cp, host(), namespace, pod);
    }

    @Override
    public void close() throws Exception {
        if (node != null) {
            cp.kubectl("delete", "node", node, "--wait=false", "--ignore-not-found");
        }
        if (host != null) {
            host.close();
        }
    }
}
