package io.podnuma.e2e.journey;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.controlplane.RealNodeOptions;
import io.podnuma.e2e.realnode.RealNodeAgent;
import io.podnuma.images.PodnumaImage;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.prometheus.PodnumaScrapeConfigs;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real worker node: the chart's operator (two replicas, on the pod network) and the agent DaemonSet it rolls out
 * (on the host network) run as pods from the images imported into the node's containerd; every workload container
 * runs the workload image and reports its own CPUs.
 */
final class RealNodeJourneyDriver implements JourneyDriver {

    private static final Path HOST_CPUSET = Path.of("/sys/fs/cgroup/cpuset/cpuset.effective_cpus");
    private static final Duration READY = Duration.ofSeconds(120);
    private static final List<PodnumaImage> IMAGES =
            List.of(PodnumaImage.OPERATOR, PodnumaImage.NODE_AGENT, PodnumaImage.WORKLOAD);

    private final int metricsPort = FreePorts.next();
    private final int healthPort = FreePorts.next();
    private LocalControlPlane plane;
    private RealNode node;

    @Override
    public boolean runtimeHasNri() {
        return true;
    }

    @Override
    public String unavailableReason() throws Exception {
        Optional<String> why = RealNode.whyUnavailable();
        if (why.isPresent()) {
            return why.get();
        }
        why = RealNodeAgent.whyMissing(tars());
        if (why.isPresent()) {
            return why.get();
        }
        CpuList cpus = CpuList.parse(Files.readString(HOST_CPUSET));
        return cpus.size() < 2 ? "one CPU (" + cpus + "): the policy reserves one and pins a pod to another" : null;
    }

    @Override
    public ControlPlane controlPlane() {
        if (plane == null) {
            node = RealNode.startWithPlane(RealNodeOptions.defaults().withImages(tars()));
            plane = node.plane();
        }
        return plane;
    }

    @Override
    public String node() {
        return node.nodeName();
    }

    @Override
    public CpuList nodeCpus() throws Exception {
        return CpuList.parse(Files.readString(HOST_CPUSET));
    }

    @Override
    public Map<String, Object> chartValues() {
        return PodnumaChart.realNodeValues(
                node,
                RealNodeAgent.reference(PodnumaImage.OPERATOR),
                RealNodeAgent.reference(PodnumaImage.NODE_AGENT),
                metricsPort,
                healthPort);
    }

    @Override
    public int operatorReplicas() {
        return 2;
    }

    @Override
    public Pod awaitAgent(Optional<String> notThisUid) throws InterruptedException {
        return AgentPods.awaitReady(
                plane.client(),
                node.nodeName(),
                notThisUid,
                READY,
                () -> plane.kubectl("get", "pods,ds", "-n", PodnumaChart.NAMESPACE, "-o", "wide")
                        .output());
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
    public String agentMetrics() throws Exception {
        return RealNodeAgent.metricsAt(metricsPort);
    }

    @Override
    public Path podResourcesSocket() {
        return agentStateDir().resolve("pod-resources/podnuma.sock");
    }

    @Override
    public Path agentStateDir() {
        return PodnumaChart.agentStateDir(node);
    }

    @Override
    public String scrapeConfigs(Path kubeconfig) {
        return PodnumaScrapeConfigs.kubernetesPods(kubeconfig, PodnumaChart.NAMESPACE);
    }

    @Override
    public void close() {
        if (node != null) {
            AgentPods.current(plane.client(), node.nodeName())
                    .ifPresent(p -> System.err.println("[RealNodeJourneyDriver] the agent's log:\n"
                            + plane.kubectl(
                                            "logs",
                                            "-n",
                                            PodnumaChart.NAMESPACE,
                                            p.getMetadata().getName(),
                                            "--tail=60")
                                    .stdout()));
            node.close();
        }
    }

    private static List<Path> tars() {
        return RealNodeAgent.tars(IMAGES);
    }
}
