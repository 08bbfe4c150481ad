package io.podnuma.demo.pinning;

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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code node-agent run} as a child process, the way the DaemonSet runs it: the shaded CLI jar, a config file, a
 * kubeconfig for the API server, and its own state directory, socket and ports in a work directory.
 */
public final class NodeAgentProcess implements AutoCloseable {

    private final Path cliJar;
    private final Path workDir;
    private final Path kubeconfig;
    private final int metricsPort;
    private final int healthPort;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;

    private NodeAgentProcess(Path cliJar, Path workDir, Path kubeconfig, int metricsPort, int healthPort) {
        this.cliJar = cliJar;
        this.workDir = workDir;
        this.kubeconfig = kubeconfig;
        this.metricsPort = metricsPort;
        this.healthPort = healthPort;
    }

    /** Prepares a process in {@code workDir} (created if needed) on two free loopback ports; nothing runs yet. */
    public static NodeAgentProcess prepare(Path cliJar, Path workDir, Path kubeconfig) throws IOException {
        Files.createDirectories(workDir);
        return new NodeAgentProcess(cliJar, workDir, kubeconfig, freePort(), freePort());
    }

    /** The agent's shaded jar under {@code <repository>/node-agent/target}, if it has been built. */
    public static Optional<Path> findCliJar(Path repositoryRoot) throws IOException {
        Path target = repositoryRoot.resolve("node-agent/target");
        if (!Files.isDirectory(target)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(target)) {
            return s.filter(p -> p.getFileName().toString().matches("podnuma-node-agent-.*-cli\\.jar"))
                    .findFirst();
        }
    }

    /** The agent settings that place its files and endpoints in the work directory, as {@code NodeAgentConfig} keys. */
    public AgentConfigFile.Placement placement() {
        return new AgentConfigFile.Placement(workDir.resolve("state"), socket(), metricsPort, healthPort);
    }

    public Path socket() {
        return workDir.resolve("podnuma.sock");
    }

    public Path log() {
        return workDir.resolve("agent.log");
    }

    public long pid() {
        return process.pid();
    }

    /** Writes {@code config} to the work directory and starts the agent on it. */
    public synchronized void start(String config) throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the agent already runs as pid " + process.pid());
        }
        Path file = workDir.resolve("agent.yaml");
        Files.writeString(file, config);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The DaemonSet's JVM: small heap, serial GC, C1 only.
        cmd.addAll(List.of(
                "-XX:+UseSerialGC",
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "-XX:-UsePerfData",
                "--enable-native-access=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 23) {
            cmd.add("--sun-misc-unsafe-memory-access=allow"); // the flag exists from JDK 23 on
        }
        cmd.addAll(List.of("-jar", cliJar.toString(), "run", "--config", file.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log().toFile());
        process = pb.start();
    }

    /** Waits until {@code /readyz} answers 200; fails with the log's tail when the agent dies or time runs out. */
    public Duration awaitReady(Duration timeout) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < timeout.toNanos()) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the node agent exited with " + process.exitValue() + " before it was ready:\n" + logTail());
            }
            try {
                if (get(healthPort, "/readyz").statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - t0);
                }
            } catch (IOException e) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        throw new IllegalStateException("the node agent was not ready within " + timeout + ":\n" + logTail());
    }

    /** The Prometheus text of {@code /metrics}. */
    public String metrics() throws IOException, InterruptedException {
        HttpResponse<String> r = get(metricsPort, "/metrics");
        if (r.statusCode() != 200) {
            throw new IOException("the agent's /metrics answered HTTP " + r.statusCode());
        }
        return r.body();
    }

    /** SIGTERM, as the kubelet stops a DaemonSet pod; returns the exit code. */
    public int terminate(Duration timeout) throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            close();
            throw new IllegalStateException(
                    "the node agent did not stop within " + timeout + " of SIGTERM:\n" + logTail());
        }
        return process.exitValue();
    }

    /** The last lines of the agent's log. */
    public String logTail() throws IOException {
        if (!Files.exists(log())) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log());
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    /** SIGKILL if it still runs: the pins stay as they are, which the caller's clean-up makes harmless. */
    @Override
    public synchronized void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
