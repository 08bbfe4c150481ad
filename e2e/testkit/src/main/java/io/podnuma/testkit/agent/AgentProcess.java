package io.podnuma.testkit.agent;

import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.StaleRuns;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The real {@code node-agent run} as a child JVM, the way the DaemonSet runs it: the CLI jar ({@link AgentCliJar}),
 * the JVM flags of {@code node-agent/jvm.flags} ({@link JvmFlags}), a config file, a kubeconfig for the API server,
 * and its own state directory, socket and ports in a work directory ({@link AgentPlacement}). For tests that need a
 * process: kill -9, SIGTERM, RSS, the demo.
 *
 * <p>A test JVM that is killed leaves its agents running; the next JVM that starts one stops them (each start is
 * recorded the way the control plane records its children, {@link StaleRuns}).
 */
public final class AgentProcess implements AutoCloseable {

    static final Path RUNS = Path.of(System.getProperty("java.io.tmpdir"), "podnuma-agent-runs");
    static final String RUN_PREFIX = "agents-";
    private static final AtomicBoolean REAPED = new AtomicBoolean();

    private final Path dir;
    private final Path kubeconfig;
    private final AgentPlacement placement;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, String> environment = new TreeMap<>();
    private Process process;
    private int starts;

    private AgentProcess(Path dir, Path kubeconfig, AgentPlacement placement) {
        this.dir = dir;
        this.kubeconfig = kubeconfig;
        this.placement = placement;
    }

    /**
     * An agent in {@code dir} (created if needed) on two free loopback ports, talking to the API server of
     * {@code kubeconfig}; nothing runs and no config is written yet.
     */
    public static AgentProcess prepare(Path dir, Path kubeconfig) throws IOException {
        Files.createDirectories(dir);
        return new AgentProcess(
                dir,
                kubeconfig,
                new AgentPlacement(
                        dir.resolve("state"), dir.resolve("podnuma.sock"), FreePorts.next(), FreePorts.next()));
    }

    /** An agent that runs {@code config} in {@code dir} ({@link #configure}). */
    public static AgentProcess withConfig(Path dir, NodeAgentConfig config, Path kubeconfig) throws IOException {
        AgentProcess agent = prepare(dir, kubeconfig);
        agent.configure(config);
        return agent;
    }

    /**
     * Writes the config file the next start reads: {@code config} with this agent's placement (state directory,
     * socket, ports, loopback bind addresses) in place of whatever it says about them.
     *
     * @return the config as written
     */
    public NodeAgentConfig configure(NodeAgentConfig config) throws IOException {
        NodeAgentConfig placed = placement.applyTo(config);
        NodeAgentConfigYaml.write(placed, configFile());
        return placed;
    }

    /** Sets an environment variable of the next starts (e.g. a diagnostic seam); null removes it. */
    public synchronized void environment(String name, String value) {
        if (value == null) {
            environment.remove(name);
        } else {
            environment.put(name, value);
        }
    }

    public AgentPlacement placement() {
        return placement;
    }

    public Path configFile() {
        return dir.resolve("agent.yaml");
    }

    public Path stateDir() {
        return placement.stateDir();
    }

    public Path socket() {
        return placement.socket();
    }

    public Path checkpoint() {
        return placement.checkpoint();
    }

    /** Starts the process with the DaemonSet's JVM flags; the log of this start is {@code agent-<n>.log}. */
    public void start() throws IOException {
        start(JvmFlags.daemonSet());
    }

    /** Starts the process with other JVM flags than the DaemonSet's (the benchmarks compare flag sets). */
    public void start(List<String> jvmFlags) throws IOException {
        start(AgentRuntime.current(), jvmFlags);
    }

    /** Starts {@code runtime}'s java and jar with {@code jvmFlags} (an image's runtime, for its class cache). */
    public synchronized void start(AgentRuntime runtime, List<String> jvmFlags) throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the agent already runs as pid " + process.pid());
        }
        if (!Files.isRegularFile(configFile())) {
            throw new IllegalStateException("no config file " + configFile() + ": configure the agent first");
        }
        if (REAPED.compareAndSet(false, true)) {
            int stopped = StaleRuns.reap(RUNS, RUN_PREFIX);
            if (stopped > 0) {
                System.err.println("[testkit] stopped " + stopped + " node agents left by a test JVM that was killed");
            }
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(runtime.java().toString());
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of(
                "-jar",
                runtime.jar().toString(),
                "run",
                "--config",
                configFile().toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.environment().putAll(environment);
        pb.redirectErrorStream(true);
        pb.redirectOutput(log(++starts).toFile());
        process = pb.start();
        StaleRuns.record(RUNS.resolve(RUN_PREFIX + ProcessHandle.current().pid()), process.toHandle());
    }

    /** The log of the {@code start}-th start (1 is the first). */
    public Path log(int start) {
        return dir.resolve("agent-" + start + ".log");
    }

    /** The log of the latest start. */
    public Path log() {
        return log(starts);
    }

    public String lastLog() throws IOException {
        return Files.readString(log());
    }

    /** The last 30 lines of the latest start's log. */
    public String logTail() throws IOException {
        if (starts == 0 || !Files.exists(log())) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log());
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Waits until {@code /readyz} answers 200; fails with the log when the process dies or time runs out. */
    public Duration awaitReady(Duration timeout) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the agent exited with " + process.exitValue() + " before it was ready:\n" + lastLog());
            }
            try {
                if (get(placement.healthPort(), "/readyz").statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - t0);
                }
            } catch (IOException e) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new IllegalStateException("the agent was not ready within " + timeout + ":\n" + lastLog());
    }

    /** The HTTP status of {@code GET <path>} on its health port ({@code /healthz}, {@code /startupz}, {@code /readyz}). */
    public int health(String path) throws IOException, InterruptedException {
        return get(placement.healthPort(), path).statusCode();
    }

    /** The Prometheus text of {@code /metrics}. */
    public String metrics() throws IOException, InterruptedException {
        HttpResponse<String> r = get(placement.metricsPort(), "/metrics");
        if (r.statusCode() != 200) {
            throw new IOException("the agent's /metrics answered HTTP " + r.statusCode());
        }
        return r.body();
    }

    /** The value of one sample line of {@code /metrics}, e.g. {@code podnuma_drift_detected_total}; NaN if absent. */
    public double metric(String sample) throws IOException, InterruptedException {
        return PrometheusText.sampleValue(metrics(), sample);
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://" + AgentPlacement.BIND_ADDRESS + ":" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** SIGKILL: no shutdown hook runs, the pins and the checkpoint stay as they are. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, as the kubelet stops a DaemonSet pod; waits for the shutdown hook and returns the exit code. */
    public int terminate(Duration timeout) throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException(
                    "the agent did not stop within " + timeout + " after SIGTERM:\n" + logTail());
        }
        return process.exitValue();
    }

    /** VmRSS of the process in KiB. */
    public long rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring(6).strip().split("\\s+")[0]);
            }
        }
        throw new IOException("/proc/" + process.pid() + "/status has no VmRSS");
    }

    /** SIGKILL if it still runs. */
    @Override
    public synchronized void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
