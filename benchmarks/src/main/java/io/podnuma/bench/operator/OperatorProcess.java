package io.podnuma.bench.operator;

import io.podnuma.bench.agent.ProcessUsage;
import io.podnuma.controlplane.FreePorts;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * {@code operator run --config FILE} from the shaded jar, as its Deployment runs it: the bench's settings file, the
 * admin kubeconfig, leader election off (a Lease renewal every few seconds would be the only steady-state write, and
 * the metric cannot tell it from the API server's own Leases). Its output goes to {@code operator-<n>.log}.
 */
final class OperatorProcess implements AutoCloseable {

    static final String NAMESPACE = "podnuma-system";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Process process;
    private final int metricsPort;
    private final int healthPort;
    private final Path log;
    private final long startNanos;
    /** Kills it when the bench's JVM is stopped (Ctrl-C) before {@link #close()}. */
    private final Thread hook;

    private OperatorProcess(Process process, int metricsPort, int healthPort, Path log, long startNanos) {
        this.process = process;
        this.metricsPort = metricsPort;
        this.healthPort = healthPort;
        this.log = log;
        this.startNanos = startNanos;
        this.hook = new Thread(process::destroyForcibly, "operator-process-kill");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    static OperatorProcess start(Path dir, String name, Path kubeconfig, List<String> jvmFlags) throws IOException {
        Files.createDirectories(dir);
        int metrics = FreePorts.next();
        int health = FreePorts.next();
        Path config = dir.resolve("operator.yaml");
        Files.writeString(config, """
                namespace: %s
                agentImage: podnuma/node-agent:bench
                leaderElection: false
                metricsPort: %d
                healthPort: %d
                """.formatted(NAMESPACE, metrics, health));
        Path log = dir.resolve(name + ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-jar", cliJar().toString(), "run", "--config", config.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.environment().put("POD_NAME", name);
        long start = System.nanoTime();
        return new OperatorProcess(pb.start(), metrics, health, log, start);
    }

    /** Overrides where the operator's jar is: {@code -Dpodnuma.operator.cliJar=FILE} (e.g. a copy of another build). */
    static final String JAR_PROPERTY = "podnuma.operator.cliJar";

    /** {@code operator/target/podnuma-operator-<version>-cli.jar} of this checkout, or the property's file. */
    static Path cliJar() {
        String set = System.getProperty(JAR_PROPERTY);
        if (set != null) {
            Path jar = Path.of(set).toAbsolutePath();
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("-D" + JAR_PROPERTY + "=" + set + ": no such file " + jar);
            }
            return jar;
        }
        Path target = Repository.resolve("operator/target");
        try (Stream<Path> s = Files.isDirectory(target) ? Files.list(target) : Stream.empty()) {
            return s.filter(p -> p.getFileName().toString().matches("podnuma-operator-.*-cli\\.jar"))
                    .sorted()
                    .reduce((a, b) -> b)
                    .orElseThrow(() -> new IllegalStateException("no podnuma-operator-*-cli.jar in " + target
                            + "; build it with ./mvnw -pl benchmarks -am package (scripts/bench does)"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long pid() {
        return process.pid();
    }

    long startNanos() {
        return startNanos;
    }

    Path log() {
        return log;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Fails with the log's tail when the process has exited. */
    void requireAlive() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    "the operator exited with " + process.exitValue() + "; its log ends:\n" + tail(40));
        }
    }

    String tail(int lines) throws IOException {
        List<String> all = Files.readAllLines(log);
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    long rssKib() throws IOException {
        return ProcessUsage.rssKib(pid());
    }

    /** {@code VmHWM}: the highest resident set the process has had. */
    long peakRssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid() + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.substring(6).strip().split("\\s+")[0]);
            }
        }
        throw new IOException("no VmHWM in /proc/" + pid() + "/status");
    }

    long cpuTicks() throws IOException {
        return ProcessUsage.cpuTicks(pid());
    }

    /** The operator's own {@code /metrics} text; empty when it does not answer yet. */
    String metrics() {
        try {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    boolean ready() {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz"))
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** SIGTERM, as the kubelet stops it; SIGKILL after 30 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
