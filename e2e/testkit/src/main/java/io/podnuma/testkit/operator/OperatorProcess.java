package io.podnuma.testkit.operator;

import io.podnuma.controlplane.FreePorts;
import io.podnuma.controlplane.StaleRuns;
import io.podnuma.testkit.CliJars;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.agent.JvmFlags;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The real {@code operator run} as a child JVM, the way its Deployment runs it: the operator's CLI jar, the JVM flags
 * of {@code operator/jvm.flags}, settings as flags, a kubeconfig, and its own health and metrics ports. A test JVM
 * that is killed leaves its operators running; the next one that starts an operator stops them ({@link StaleRuns}).
 */
public final class OperatorProcess implements AutoCloseable {

    /** Overrides where the jar is: {@code -Dpodnuma.operator.cliJar=FILE}. */
    public static final String JAR_PROPERTY = "podnuma.operator.cliJar";

    public static final String JVM_FLAGS = "operator/jvm.flags";
    /** The operator image's {@code MALLOC_ARENA_MAX} (e2e/images BuildJavaImage). */
    public static final String MALLOC_ARENA_MAX = "2";

    static final Path RUNS = Path.of(System.getProperty("java.io.tmpdir"), "podnuma-operator-runs");
    static final String RUN_PREFIX = "operators-";
    private static final AtomicBoolean REAPED = new AtomicBoolean();

    private final Path dir;
    private final String replica;
    private final Path kubeconfig;
    private final Map<String, String> settings;
    private final List<String> jvmFlags;
    private final int healthPort = FreePorts.next();
    private final int metricsPort = FreePorts.next();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private long startNanos;

    private OperatorProcess(
            Path dir, String replica, Path kubeconfig, Map<String, String> settings, List<String> jvmFlags) {
        this.dir = dir;
        this.replica = replica;
        this.jvmFlags = List.copyOf(jvmFlags);
        this.kubeconfig = kubeconfig;
        this.settings = java.util.Collections.unmodifiableMap(settings);
    }

    /** The operator's runnable jar, {@code operator/target/podnuma-operator-<version>-cli.jar}. */
    public static Path cliJar() {
        return CliJars.locate(JAR_PROPERTY, "operator", "podnuma-operator");
    }

    /**
     * Starts an operator with {@code settings} (flag name without the dashes → value, e.g.
     * {@code agent-image → podnuma.local/node-agent:1}, {@code config → FILE}), its log in {@code dir}.
     */
    public static OperatorProcess start(Path dir, Path kubeconfig, Map<String, String> settings) throws IOException {
        return start(dir, "operator", kubeconfig, settings);
    }

    /**
     * Starts replica {@code replica} (its {@code POD_NAME}: the identity it holds the Lease under; its log is
     * {@code <replica>.log}).
     */
    public static OperatorProcess start(Path dir, String replica, Path kubeconfig, Map<String, String> settings)
            throws IOException {
        return start(dir, replica, kubeconfig, settings, jvmFlags());
    }

    /** Starts replica {@code replica} with other JVM flags than the Deployment's (the scale bench compares them). */
    public static OperatorProcess start(
            Path dir, String replica, Path kubeconfig, Map<String, String> settings, List<String> jvmFlags)
            throws IOException {
        Files.createDirectories(dir);
        OperatorProcess operator =
                new OperatorProcess(dir, replica, kubeconfig, new LinkedHashMap<>(settings), jvmFlags);
        operator.launch();
        return operator;
    }

    /** The flags the Deployment runs the operator with ({@code operator/jvm.flags}). */
    public static List<String> jvmFlags() {
        return JvmFlags.read(Repository.resolve(JVM_FLAGS));
    }

    private void launch() throws IOException {
        if (REAPED.compareAndSet(false, true)) {
            int stopped = StaleRuns.reap(RUNS, RUN_PREFIX);
            if (stopped > 0) {
                System.err.println("[testkit] stopped " + stopped + " operators left by a test JVM that was killed");
            }
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-jar", cliJar().toString(), "run"));
        settings.forEach((k, v) -> cmd.add("--" + k + "=" + v));
        cmd.add("--health-port=" + healthPort);
        cmd.add("--metrics-port=" + metricsPort);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        pb.environment().put("POD_NAME", replica);
        // As the image sets it: two malloc arenas instead of eight per core for the JVM's threads.
        pb.environment().put("MALLOC_ARENA_MAX", MALLOC_ARENA_MAX);
        pb.redirectErrorStream(true);
        pb.redirectOutput(log().toFile());
        startNanos = System.nanoTime();
        process = pb.start();
        StaleRuns.record(RUNS.resolve(RUN_PREFIX + ProcessHandle.current().pid()), process.toHandle());
    }

    public Path log() {
        return dir.resolve(replica + ".log");
    }

    /** The last 30 lines of its log. */
    public String logTail() throws IOException {
        if (!Files.exists(log())) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log());
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    public long pid() {
        return process.pid();
    }

    /** {@code System.nanoTime()} just before the process started. */
    public long startNanos() {
        return startNanos;
    }

    /** Fails with the log's tail when the process has exited. */
    public void requireAlive() throws IOException {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    "the operator exited with " + process.exitValue() + "; its log ends:\n" + logTail());
        }
    }

    /** Whether {@code /readyz} answers 200 now. */
    public boolean ready() throws InterruptedException {
        try {
            return health("/readyz") == 200;
        } catch (IOException notListening) {
            return false;
        }
    }

    /** VmRSS and VmHWM (the highest resident set it has had) in KiB, from {@code /proc/<pid>/status}. */
    public long rssKib() throws IOException {
        return statusKib("VmRSS:");
    }

    public long peakRssKib() throws IOException {
        return statusKib("VmHWM:");
    }

    private long statusKib(String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith(key)) {
                return Long.parseLong(line.substring(key.length()).strip().split("\\s+")[0]);
            }
        }
        throw new IOException("/proc/" + process.pid() + "/status has no " + key);
    }

    /** The loopback port of its {@code /metrics} (a pod object standing for it names this port). */
    public int metricsPort() {
        return metricsPort;
    }

    /** The identity it holds the Lease under. */
    public String replica() {
        return replica;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Its exit code once it has exited (137 after SIGKILL, 1 after it lost the Lease), else empty. */
    public java.util.OptionalInt exitCode() {
        return process.isAlive() ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(process.exitValue());
    }

    /** The HTTP status of {@code GET <path>} on its health port ({@code /healthz}, {@code /readyz}). */
    public int health(String path) throws IOException, InterruptedException {
        return get(healthPort, path).statusCode();
    }

    /** Waits until {@code /readyz} answers 200; fails with the log when the process dies or time runs out. */
    public Duration awaitReady(Duration timeout) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < timeout.toNanos()) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the operator exited with " + process.exitValue() + " before it was ready:\n" + logTail());
            }
            try {
                if (get(healthPort, "/readyz").statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - t0);
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        throw new IllegalStateException("the operator was not ready within " + timeout + ":\n" + logTail());
    }

    /** The Prometheus text of its {@code /metrics}. */
    public String metrics() throws IOException, InterruptedException {
        HttpResponse<String> r = get(metricsPort, "/metrics");
        if (r.statusCode() != 200) {
            throw new IOException("the operator's /metrics answered HTTP " + r.statusCode());
        }
        return r.body();
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** SIGTERM, as the kubelet stops its pod; returns the exit code. */
    public int terminate(Duration timeout) throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException(
                    "the operator did not stop within " + timeout + " after SIGTERM:\n" + logTail());
        }
        return process.exitValue();
    }

    /** SIGKILL if it still runs. */
    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
