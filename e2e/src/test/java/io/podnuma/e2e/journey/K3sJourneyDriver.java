package io.podnuma.e2e.journey;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.e2e.realnode.RealNodeAgent;
import io.podnuma.images.PodnumaImage;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.prometheus.PodnumaScrapeConfigs;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;

/**
 * k3s in a container where a Docker engine exists ({@link K3sCluster}): the chart's operator (one replica, on the host
 * network of the k3s node so Prometheus on this machine reaches it at the node's address, as it reaches the agent) and
 * the agent DaemonSet as pods from the imported images; every workload container runs the workload image and reports
 * its own CPUs ({@code kubectl exec}). The agent's state directory is a directory of this machine bound into the
 * container, so the PodResources socket is reachable from here and the test sees what is left there.
 */
final class K3sJourneyDriver implements JourneyDriver {

    private static final Duration READY = Duration.ofSeconds(180);
    private static final List<PodnumaImage> IMAGES =
            List.of(PodnumaImage.OPERATOR, PodnumaImage.NODE_AGENT, PodnumaImage.WORKLOAD);

    private final Path workDir;
    private final Path stateDir;
    private K3sCluster cluster;
    private String node;

    K3sJourneyDriver(Path workDir) {
        this.workDir = workDir;
        this.stateDir = workDir.resolve("podnuma-agent");
    }

    @Override
    public String unavailableReason() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return "no Docker engine for k3s (Testcontainers found none)";
        }
        Optional<String> why = RealNodeAgent.whyMissing(RealNodeAgent.tars(IMAGES));
        if (why.isPresent()) {
            return why.get();
        }
        try {
            LocalControlPlane.binaries();
        } catch (ControlPlaneUnavailableException e) {
            return "no kubectl and helm: " + e.getMessage();
        }
        return null;
    }

    @Override
    public ControlPlane controlPlane() throws Exception {
        if (cluster == null) {
            cluster = K3sCluster.start(
                    LocalControlPlane.binaries(), workDir.resolve("k3s"), stateDir, RealNodeAgent.tars(IMAGES));
            node = cluster.client()
                    .nodes()
                    .list()
                    .getItems()
                    .get(0)
                    .getMetadata()
                    .getName();
        }
        return cluster;
    }

    @Override
    public String node() {
        return node;
    }

    /** What the node's first process may use: the container's CPUs, every one a pod may get before podnuma. */
    @Override
    public CpuList nodeCpus() throws Exception {
        return cpusAllowed(cluster.exec("cat", "/proc/1/status"));
    }

    @Override
    public Map<String, Object> chartValues() {
        return PodnumaChart.containerNodeValues(
                RealNodeAgent.reference(PodnumaImage.OPERATOR),
                RealNodeAgent.reference(PodnumaImage.NODE_AGENT),
                stateDir);
    }

    @Override
    public int operatorReplicas() {
        return 1;
    }

    @Override
    public Pod awaitAgent(Optional<String> notThisUid) throws InterruptedException {
        return AgentPods.awaitReady(
                cluster.client(),
                node,
                notThisUid,
                READY,
                () -> cluster.kubectl("get", "pods,ds", "-n", PodnumaChart.NAMESPACE, "-o", "wide")
                        .output());
    }

    /** Creates the pod of the workload image and returns, once every container runs, each one's host pid. */
    @Override
    public Map<String, Long> run(String namespace, Pod pod) throws Exception {
        String name = pod.getMetadata().getName();
        cluster.client()
                .pods()
                .inNamespace(namespace)
                .resource(WorkloadPods.ofImage(pod, RealNodeAgent.workloadImage()))
                .create();
        long deadline = System.nanoTime() + READY.toNanos();
        while (true) {
            Pod now = cluster.client()
                    .pods()
                    .inNamespace(namespace)
                    .withName(name)
                    .get();
            List<ContainerStatus> statuses = statuses(now);
            if (!statuses.isEmpty()
                    && statuses.size() == containerCount(now)
                    && statuses.stream().allMatch(s -> s.getState().getRunning() != null)) {
                Map<String, Long> pids = new LinkedHashMap<>();
                for (ContainerStatus s : statuses) {
                    String id = s.getContainerID().replaceFirst("^[a-z]+://", "");
                    pids.put(
                            s.getName(),
                            Long.parseLong(cluster.exec(
                                            "k3s",
                                            "crictl",
                                            "inspect",
                                            "--output",
                                            "go-template",
                                            "--template",
                                            "{{.info.pid}}",
                                            id)
                                    .strip()));
                }
                return pids;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("pod " + namespace + "/" + name + " did not run within " + READY.toSeconds()
                        + " s: " + (now == null ? "gone" : now.getStatus()));
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
    }

    @Override
    public CpuList affinity(String namespace, String pod, String container, long pid) {
        return WorkloadPods.reportedCpus(cluster, namespace, pod, container);
    }

    /** Through the API server's pod proxy: wherever the node's network is, the API server reaches it. */
    @Override
    public String agentMetrics() {
        Pod agent = AgentPods.current(cluster.client(), node)
                .orElseThrow(() -> new AssertionError("no agent pod on " + node));
        int port = agent.getSpec().getContainers().get(0).getPorts().stream()
                .filter(p -> "metrics".equals(p.getName()))
                .findFirst()
                .orElseThrow()
                .getContainerPort();
        return cluster.kubectl(
                        "get",
                        "--raw",
                        "/api/v1/namespaces/" + PodnumaChart.NAMESPACE + "/pods/"
                                + agent.getMetadata().getName() + ":" + port + "/proxy/metrics")
                .assertSuccess()
                .stdout();
    }

    @Override
    public Path podResourcesSocket() {
        return PodnumaChart.podResourcesSocketIn(stateDir);
    }

    @Override
    public Path agentStateDir() {
        return stateDir;
    }

    /**
     * The pods are found through the k3s API server; the operator and the agent are on the node's host network, so
     * their addresses are the container's, which this machine reaches.
     */
    @Override
    public String scrapeConfigs(Path kubeconfig) {
        return PodnumaScrapeConfigs.kubernetesPods(kubeconfig, PodnumaChart.NAMESPACE);
    }

    @Override
    public void close() {
        if (cluster != null) {
            AgentPods.current(cluster.client(), node)
                    .ifPresent(p -> System.err.println("[K3sJourneyDriver] the agent's log:\n"
                            + cluster.kubectl(
                                            "logs",
                                            "-n",
                                            PodnumaChart.NAMESPACE,
                                            p.getMetadata().getName(),
                                            "--tail=60")
                                    .output()));
            cluster.close();
        }
    }

    private static List<ContainerStatus> statuses(Pod pod) {
        List<ContainerStatus> all = new ArrayList<>();
        if (pod == null || pod.getStatus() == null) {
            return all;
        }
        all.addAll(pod.getStatus().getContainerStatuses());
        if (pod.getStatus().getInitContainerStatuses() != null) {
            all.addAll(pod.getStatus().getInitContainerStatuses());
        }
        return all;
    }

    private static int containerCount(Pod pod) {
        return pod.getSpec().getContainers().size()
                + (pod.getSpec().getInitContainers() == null
                        ? 0
                        : pod.getSpec().getInitContainers().size());
    }

    private static CpuList cpusAllowed(String procStatus) {
        return procStatus
                .lines()
                .filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l ->
                        CpuList.parse(l.substring("Cpus_allowed_list:".length()).strip()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no Cpus_allowed_list in /proc/1/status"));
    }
}
