package io.podnuma.e2e.journey;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.chart.ChartOperator;
import io.podnuma.testkit.chart.PodnumaChart;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.cpu.ProcessAffinity;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.kwok.LoopbackNode;
import io.podnuma.testkit.pods.RunningPods;
import io.podnuma.testkit.prometheus.PodnumaScrapeConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The chart on a local control plane of its own (the chart's cluster-scoped objects must not meet other tests) with
 * its controllers and one kwok node standing for this machine ({@link LoopbackNode}): the operator as
 * {@code operator run} processes with the settings the chart rendered ({@link ChartOperator}), the agent DaemonSet's
 * pod as a {@code node-agent run} process with the config the operator rendered ({@link AgentPodKubelet}), and every
 * workload container a real process in a kubelet-like cgroup v1 subtree ({@link KubeletLikeHost}), whose CPUs are read
 * from {@code /proc/<pid>/status}. Fast: no image, no kubelet, no container runtime.
 */
final class ProcessJourneyDriver implements JourneyDriver {

    static final String NODE = "journey-kwok";
    private static final String PLANE_DIR = "journey-plane";

    private final Path workDir;
    private LocalControlPlane plane;
    private KubeletLikeHost host;
    private AgentProcess agent;
    private ChartOperator operator;
    private AgentPodKubelet kubelet;

    ProcessJourneyDriver(Path workDir) {
        this.workDir = workDir;
    }

    @Override
    public String unavailableReason() throws Exception {
        Optional<String> reason = KubeletLikeHost.unavailableReason();
        if (reason.isPresent()) {
            return reason.get();
        }
        CpuList cpus = CpuList.parse(Files.readString(KubeletLikeHost.CPUSET.resolve("cpuset.effective_cpus")));
        if (cpus.size() < 2) {
            return "one CPU (" + cpus + "): the policy reserves one and pins a pod to another";
        }
        try {
            controlPlane();
        } catch (ControlPlaneUnavailableException e) {
            return "no local control plane: " + e.getMessage();
        }
        return null;
    }

    @Override
    public ControlPlane controlPlane() throws Exception {
        if (plane == null) {
            plane = LocalControlPlane.startApart(PLANE_DIR);
            host = KubeletLikeHost.create(CgroupDriverName.CGROUPFS, "journey");
            LoopbackNode.ensure(
                    plane,
                    NODE,
                    Map.of(),
                    Map.of("cpu", Integer.toString(host.cpus().size()), "memory", "8Gi", "pods", "110"));
            agent = AgentProcess.prepare(workDir.resolve("agent"), plane.kubeconfig());
            operator = new ChartOperator(plane, workDir.resolve("operator"), NODE);
            kubelet = new AgentPodKubelet(plane, agent, host, NODE);
        }
        return plane;
    }

    @Override
    public String node() {
        return NODE;
    }

    @Override
    public CpuList nodeCpus() {
        return host.cpus();
    }

    @Override
    public Map<String, Object> chartValues() {
        return PodnumaChart.processValues(agent.placement());
    }

    @Override
    public void afterHelm(HelmStep step) throws Exception {
        switch (step) {
            case INSTALL, UPGRADE -> operator.sync();
            case UNINSTALL -> operator.stop();
        }
    }

    @Override
    public int operatorReplicas() {
        return 0;
    }

    @Override
    public Pod awaitAgent(Optional<String> notThisUid) throws Exception {
        return kubelet.awaitPod(notThisUid);
    }

    @Override
    public Map<String, Long> run(String namespace, Pod pod) throws Exception {
        return RunningPods.runOn(plane, host, namespace, pod);
    }

    @Override
    public CpuList affinity(String namespace, String pod, String container, long pid) throws Exception {
        return ProcessAffinity.allowedCpus(pid);
    }

    @Override
    public String agentMetrics() throws Exception {
        return agent.metrics();
    }

    @Override
    public Path podResourcesSocket() {
        return agent.socket();
    }

    @Override
    public Path agentStateDir() {
        return agent.stateDir();
    }

    @Override
    public String scrapeConfigs(Path kubeconfig) {
        return PodnumaScrapeConfigs.kubernetesPods(kubeconfig, PodnumaChart.NAMESPACE);
    }

    /** Stops everything it started, each part even when another fails; then reports what the kubelet saw go wrong. */
    @Override
    public void close() throws Exception {
        List<Exception> failures = new ArrayList<>();
        if (agent != null) {
            System.err.println("[ProcessJourneyDriver] the agent's log ends:\n" + agent.logTail());
            System.err.println("[ProcessJourneyDriver] the operator's log ends:\n" + operator.logTail());
        }
        for (AutoCloseable part : new AutoCloseable[] {kubelet, operator, host, plane}) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            Exception first = failures.get(0);
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
        if (kubelet != null && !kubelet.problems().isEmpty()) {
            throw new AssertionError(String.join("\n", kubelet.problems()));
        }
    }
}
