package io.podnuma.testkit.chart;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.testkit.kwok.StandInPods;
import io.podnuma.testkit.operator.OperatorProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The chart's operator Deployment played by processes of this machine: {@code operator run --config} with the
 * settings file the chart rendered into its ConfigMap (so chart values reach the operator as they reach its pods),
 * started again when that file changes (the Deployment rolls on its settings checksum), and a stand-in pod on the
 * loopback node labelled as the chart labels operator pods, named as the replica that holds the Lease, naming the
 * process's metrics port, so Prometheus finds the operator as it would find its pods.
 */
public final class ChartOperator implements AutoCloseable {

    /** The ConfigMap key the Deployment mounts as {@code /etc/podnuma/operator.yaml}. */
    public static final String SETTINGS_KEY = "operator.yaml";

    private static final Duration READY = Duration.ofSeconds(90);

    private final ControlPlane cp;
    private final Path dir;
    private final String node;
    private OperatorProcess process;
    /** The latest process, kept after it stopped for its log. */
    private OperatorProcess latest;

    private String settings;
    private int starts;

    public ChartOperator(ControlPlane cp, Path dir, String node) {
        this.cp = cp;
        this.dir = dir;
        this.node = node;
    }

    /** Starts the operator, or a new one in place of the old when the chart's settings changed; returns once ready. */
    public void sync() throws IOException, InterruptedException {
        String rendered = renderedSettings();
        if (process != null && process.isAlive() && rendered.equals(settings)) {
            return;
        }
        stop();
        Path file = dir.resolve("operator-" + (++starts) + ".yaml");
        Files.createDirectories(dir);
        Files.writeString(file, rendered);
        String replica = PodnumaChart.OPERATOR + "-process-" + starts;
        process = OperatorProcess.start(dir, replica, cp.kubeconfig(), Map.of("config", file.toString()));
        latest = process;
        process.awaitReady(READY);
        settings = rendered;
        PodTemplateSpec template = deployment().getSpec().getTemplate();
        cp.client()
                .resource(StandInPods.forProcess(
                        PodnumaChart.NAMESPACE,
                        replica,
                        node,
                        template.getMetadata().getLabels(),
                        template.getSpec().getContainers().get(0).getName(),
                        template.getSpec().getContainers().get(0).getImage(),
                        process.metricsPort()))
                .create();
    }

    /** As the Deployment's pods go: SIGTERM, and the stand-in pod is deleted. */
    public void stop() throws IOException, InterruptedException {
        if (process == null) {
            return;
        }
        if (process.isAlive()) {
            process.terminate(Duration.ofSeconds(30));
        }
        cp.client()
                .pods()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withName(process.replica())
                .delete();
        process = null;
    }

    public String logTail() throws IOException {
        return latest == null ? "(no operator ran)" : latest.logTail();
    }

    private String renderedSettings() {
        ConfigMap cm = cp.client()
                .configMaps()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withName(PodnumaChart.OPERATOR)
                .get();
        if (cm == null || cm.getData() == null || !cm.getData().containsKey(SETTINGS_KEY)) {
            throw new IllegalStateException("the chart rendered no ConfigMap " + PodnumaChart.NAMESPACE + "/"
                    + PodnumaChart.OPERATOR + " with " + SETTINGS_KEY);
        }
        return cm.getData().get(SETTINGS_KEY);
    }

    private Deployment deployment() {
        Deployment d = cp.client()
                .apps()
                .deployments()
                .inNamespace(PodnumaChart.NAMESPACE)
                .withName(PodnumaChart.OPERATOR)
                .get();
        if (d == null) {
            throw new IllegalStateException(
                    "the chart rendered no Deployment " + PodnumaChart.NAMESPACE + "/" + PodnumaChart.OPERATOR);
        }
        return d;
    }

    /** SIGKILL if it still runs. */
    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.close();
        }
    }
}
