package io.podnuma.agent.hosttest;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The real {@code node-agent run} as a child JVM (the shaded CLI jar from {@code target/}), with its own config file,
 * state directory, socket and ports, for tests that need a process: kill -9, SIGTERM, RSS.
 */
public final class AgentProcess implements AutoCloseable {

    /** What the DaemonSet gives the JVM: small heap, serial GC, C1 only (see the chart). */
    public static final List<String> JVM_FLAGS = List.of(
            "-XX:+UseSerialGC",
            "-Xms16m",
            "-Xmx64m",
            "-XX:TieredStopAtLevel=1",
            "-XX:ReservedCodeCacheSize=32m",
            "-Xss512k",
            "-XX:-UsePerfData",
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow");

    private final Path dir;
    private final Path config;
    private final Path kubeconfig;
    private final int metricsPort;
    private final int healthPort;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private int starts;

    /**
     * @param dir working directory: the config file, state, socket and logs go here
     * @param yamlWithoutPorts the NodeAgentConfig without stateDir, podResourcesSocket, metricsPort and healthPort
     */
    public AgentProcess(Path dir, String yamlWithoutPorts, Path kubeconfig) throws IOException {
        this.dir = dir;
        this.kubeconfig = kubeconfig;
        this.metricsPort = freePort();
        this.healthPort = freePort();
        this.config = dir.resolve("agent.yaml");
        Files.createDirectories(dir);
        Files.writeString(
                config,
                yamlWithoutPorts.strip() + "\nstateDir: " + stateDir() + "\npodResourcesSocket: " + socket()
                        + "\nmetricsPort: " + metricsPort + "\nhealthPort: " + healthPort
                        + "\nmetricsBindAddress: 127.0.0.1\nhealthBindAddress: 127.0.0.1\n");
    }

    public Path stateDir() {
        return dir.resolve("state");
    }

    public Path socket() {
        return dir.resolve("podnuma.sock");
    }

    public Path checkpoint() {
        return stateDir().resolve("node-state.json");
    }

    /** Starts the process; the log of this start is {@code agent-<n>.log} in the working directory. */
    public void start() throws IOException {
        start(JVM_FLAGS);
    }

    /** Starts the process with other JVM flags than the DaemonSet's (the benchmarks compare flag sets). */
    public void start(List<String> jvmFlags) throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-jar", cliJar().toString(), "run", "--config", config.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log(++starts).toFile());
        process = pb.start();
    }

    public Path log(int start) {
        return dir.resolve("agent-" + start + ".log");
    }

    public String lastLog() throws IOException {
        return Files.readString(log(starts));
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Waits until {@code /readyz} answers 200; fails with the log when the process dies or time runs out. */
    public Duration awaitReady(Duration timeout) throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the agent exited with " + process.exitValue() + " before it was ready:\n" + lastLog());
            }
            try {
                if (get(healthPort, "/readyz").statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - t0);
                }
            } catch (IOException e) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new IllegalStateException("the agent was not ready within " + timeout + ":\n" + lastLog());
    }

    public String metrics() throws Exception {
        HttpResponse<String> r = get(metricsPort, "/metrics");
        if (r.statusCode() != 200) {
            throw new IOException("/metrics answered " + r.statusCode());
        }
        return r.body();
    }

    /** The value of one sample line of {@code /metrics}, e.g. {@code podnuma_drift_detected_total}; NaN if absent. */
    public double metric(String sample) throws Exception {
        return parseMetric(metrics(), sample);
    }

    public static double parseMetric(String text, String sample) {
        try (Stream<String> lines = text.lines()) {
            return lines.filter(l -> l.startsWith(sample + " "))
                    .mapToDouble(l ->
                            Double.parseDouble(l.substring(sample.length() + 1).strip()))
                    .findFirst()
                    .orElse(Double.NaN);
        }
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** SIGKILL: no shutdown hook runs. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, then waits for the shutdown hook to finish; returns the exit code. */
    public int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException("the agent did not stop within " + timeout + " after SIGTERM");
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

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** The shaded jar {@code package} builds; an IT runs after it. */
    public static Path cliJar() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("target"))) {
            return s.filter(p -> p.getFileName().toString().matches("podnuma-node-agent-.*-cli\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IOException(
                            "no target/podnuma-node-agent-*-cli.jar: run the ITs through Maven (package comes first)"));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
