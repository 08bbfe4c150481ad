package io.podnuma.e2e.pinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.controlplane.RealNodeOptions;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.e2e.realnode.AgentConfinement;
import io.podnuma.e2e.realnode.RealNodeAgent;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.nodestate.NodeStateReads;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The real worker node: kubelet and containerd run the pods from the workload image; the operator runs as a process,
 * labels the node its policy selects and rolls the agent image out as a DaemonSet, whose pod runs under the agent's
 * own ServiceAccount. A container's CPUs are what the container itself reports.
 */
final class RealNodeDriver implements PinningDriver {

    private static final Path HOST_CPUSET = Path.of("/sys/fs/cgroup/cpuset/cpuset.effective_cpus");
    private final Path workDir;
    private LocalControlPlane plane;
    private RealNode node;
    private RealNodeAgent agent;

    RealNodeDriver(Path workDir) {
        this.workDir = workDir;
    }

    @Override
    public String unavailableReason() throws Exception {
        Optional<String> why = RealNode.whyUnavailable().or(RealNodeAgent::whyNoImages);
        if (why.isPresent()) {
            return why.get();
        }
        CpuList cpus = CpuList.parse(Files.readString(HOST_CPUSET));
        return cpus.size() < 2 ? "one CPU (" + cpus + "): the scenario reserves one and pins a pod to another" : null;
    }

    @Override
    public ControlPlane controlPlane() {
        if (plane == null) {
            node = RealNode.startWithPlane(RealNodeOptions.defaults().withImages(RealNodeAgent.images()));
            plane = node.plane();
        }
        return plane;
    }

    @Override
    public String joinNode(String id, String policyName) {
        // Selected now; the operator labels it podnuma.io/policy once the policy is applied (startAgent).
        RealNodeAgent.select(plane, node, policyName);
        return node.nodeName();
    }

    @Override
    public void leaveNode(String nodeName) {
        RealNodeAgent.unselect(plane, node);
    }

    @Override
    public String nodeCpus() throws Exception {
        return CpuList.parse(Files.readString(HOST_CPUSET)).toString();
    }

    @Override
    public void startAgent(String nodeName, String policyName) throws Exception {
        agent = RealNodeAgent.deploy(
                plane,
                node,
                workDir,
                policyName,
                SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.WARN, false));
        Pod ready = agent.awaitReady(Optional.empty());
        // Unprivileged, as rendered: no capability, no privilege gain, seccomp, a read-only root, no kubelet key.
        long checks = System.nanoTime();
        AgentConfinement.assertConfined(node, ready);
        // And still sure of the kubelet's policies (none here), asked over the one kubelet directory it has.
        Map<?, ?> kubelet = await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> NodeStateReads.status(plane.client(), nodeName)
                                .flatMap(s -> NodeStateReads.condition(s, "KubeletConflict")),
                        Optional::isPresent)
                .orElseThrow();
        assertThat(kubelet.get("status")).as("KubeletConflict %s", kubelet).isEqualTo("False");
        assertThat(kubelet.get("reason")).isEqualTo("KubeletManagersNone");
        assertThat(String.valueOf(kubelet.get("message")))
                .contains("/host/kubelet-pod-resources/kubelet.sock: the kubelet offers no exclusive CPU");
        System.err.println(
                "[RealNodeDriver] agent confined, out of the kubelet's reach, KubeletConflict False: checked in "
                        + (System.nanoTime() - checks) / 1_000_000 + " ms");
    }

    @Override
    public Map<String, Long> run(String namespace, Pod pod) {
        return WorkloadPods.run(plane, node, namespace, pod, RealNodeAgent.workloadImage());
    }

    @Override
    public CpuList affinity(String namespace, String pod, String container, long pid) {
        return WorkloadPods.reportedCpus(plane, namespace, pod, container);
    }

    @Override
    public String metrics() throws Exception {
        return agent.metrics();
    }

    @Override
    public void restartAgent() throws Exception {
        agent.restart();
    }

    @Override
    public void stopAgent() throws Exception {
        agent.awaitGone();
    }

    @Override
    public void close() throws Exception {
        if (node != null) {
            try {
                if (agent != null) {
                    if (agent.pod().isPresent()) {
                        System.err.println("[RealNodeDriver] the agent's log:\n" + agent.logs());
                    }
                    agent.close();
                }
            } finally {
                node.close();
            }
        }
    }
}
