package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A real {@code prometheus} process for one test: its configuration, a private TSDB directory and its log in a
 * directory of the test's, on a free loopback port, with the memory settings a shared 2-core machine needs. Typed
 * reads of its HTTP API ({@link PrometheusApi}); {@link #close()} stops it and deletes its data.
 *
 * <p>A test JVM that is killed leaves its Prometheus running and its data on disk; the next JVM that starts one
 * stops it and deletes that data ({@link StaleRuns}, the record also naming the data directory).
 */
public final class PrometheusServer implements AutoCloseable {

    /** Go's soft memory limit and GC target: unset, Prometheus would take 90 % of the machine's RAM as its limit. */
    public static final String GOMEMLIMIT = "256MiB";

    public static final String GOGC = "50";

    static final Path RUNS = Path.of(System.getProperty("java.io.tmpdir"), "podnuma-prometheus-runs");
    static final String RUN_PREFIX = "prometheus-";
    /** In a run's record directory: one data directory per line, deleted when the run is reaped. */
    static final String DATA_DIRS = "data-dirs";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final AtomicBoolean REAPED = new AtomicBoolean();

    private final ManagedProcess process;
    private final Path configFile;
    private final Path dataDir;
    private final URI uri;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private PrometheusServer(ManagedProcess process, Path configFile, Path dataDir, URI uri) {
        this.process = process;
        this.configFile = configFile;
        this.dataDir = dataDir;
        this.uri = uri;
    }

    /**
     * Starts the {@code prometheus} of {@code binDir} with {@code configYaml} in {@code dir} (created if needed:
     * {@code prometheus.yml}, {@code data/}, {@code prometheus.log}) and returns once {@code /-/ready} answers.
     */
    public static PrometheusServer start(Path binDir, Path dir, String configYaml) {
        Path executable = binDir.resolve("prometheus");
        if (!Files.isExecutable(executable)) {
            throw new IllegalStateException("no prometheus in " + binDir + "; run e2e/controlplane/"
                    + ControlPlaneBinaries.SCRIPT + " to build it");
        }
        reapKilledRuns();
        Path configFile = dir.resolve("prometheus.yml");
        Path dataDir = dir.resolve("data");
        try {
            Files.createDirectories(dataDir);
            Files.writeString(configFile, configYaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir + ": " + e.getMessage(), e);
        }
        int port = FreePorts.next();
        List<String> command = List.of(
                executable.toString(),
                "--config.file=" + configFile,
                "--storage.tsdb.path=" + dataDir,
                "--web.listen-address=127.0.0.1:" + port,
                // POST /-/reload after a config change, instead of a restart.
                "--web.enable-lifecycle",
                "--log.level=info");
        Path record = RUNS.resolve(RUN_PREFIX + ProcessHandle.current().pid());
        appendLine(record.resolve(DATA_DIRS), dataDir.toAbsolutePath().toString());
        ManagedProcess process =
                ManagedProcess.start("prometheus", command, Map.of("GOMEMLIMIT", GOMEMLIMIT, "GOGC", GOGC), dir);
        StaleRuns.record(record, process.handle());
        URI uri = URI.create("http://127.0.0.1:" + port);
        PrometheusServer server = new PrometheusServer(process, configFile, dataDir, uri);
        try {
            HealthProbe.plainHttp().await(uri.resolve("/-/ready"), process, READY_TIMEOUT);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** Starts the Prometheus of the plane's bin dir; see {@link #start(Path, Path, String)}. */
    public static PrometheusServer start(ControlPlane plane, Path dir, String configYaml) {
        return start(plane.binDir(), dir, configYaml);
    }

    private static void reapKilledRuns() {
        if (!REAPED.compareAndSet(false, true)) {
            return;
        }
        int stopped = reap(RUNS);
        if (stopped > 0) {
            System.err.println("[controlplane] stopped " + stopped + " prometheus left by a test JVM that was killed");
        }
    }

    /** Stops the servers of dead JVMs recorded under {@code runs} and deletes their data; returns how many. */
    static int reap(Path runs) {
        return StaleRuns.reap(runs, RUN_PREFIX, PrometheusServer::deleteRecordedData);
    }

    /** Deletes the data directories a dead run recorded (its TSDB can be hundreds of MB after a long test). */
    static void deleteRecordedData(Path record) {
        Path list = record.resolve(DATA_DIRS);
        if (!Files.isRegularFile(list)) {
            return;
        }
        try {
            for (String line : Files.readAllLines(list)) {
                if (!line.isBlank()) {
                    LocalControlPlane.deleteRecursively(Path.of(line.strip()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + list + ": " + e.getMessage(), e);
        }
    }

    private static void appendLine(Path file, String line) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI uri() {
        return uri;
    }

    public Path configFile() {
        return configFile;
    }

    public Path log() {
        return process.log();
    }

    /** The last {@code lines} lines of its log, for a failure message. */
    public String logTail(int lines) {
        return process.tail(lines);
    }

    /** An instant query at the current time: the samples of a vector, or a scalar as one sample. */
    public List<PrometheusApi.Sample> query(String promql) {
        return PrometheusApi.samples(get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)));
    }

    /** The active targets, with their health after the latest scrape. */
    public List<PrometheusApi.Target> activeTargets() {
        return PrometheusApi.activeTargets(get("/api/v1/targets?state=active"));
    }

    public List<PrometheusApi.RuleGroup> ruleGroups() {
        return PrometheusApi.ruleGroups(get("/api/v1/rules"));
    }

    /** The pending and firing alerts. */
    public List<PrometheusApi.Alert> alerts() {
        return PrometheusApi.alerts(get("/api/v1/alerts"));
    }

    /** Writes a new configuration and has Prometheus load it ({@code POST /-/reload}); fails if it refuses it. */
    public void reload(String configYaml) {
        try {
            Files.writeString(configFile, configYaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + configFile + ": " + e.getMessage(), e);
        }
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri.resolve("/-/reload"))
                .timeout(REQUEST_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("prometheus refused the new configuration (HTTP " + response.statusCode()
                    + "): " + response.body().strip());
        }
    }

    private String get(String pathAndQuery) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri.resolve(pathAndQuery))
                .timeout(REQUEST_TIMEOUT)
                .GET()
                .build());
        // The API answers its errors (400 bad_data, 422 execution, 503 timeout) as JSON, which PrometheusApi types.
        if (response.statusCode() != 200 && !response.body().startsWith("{")) {
            throw new IllegalStateException(
                    "GET " + pathAndQuery + " answered HTTP " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private HttpResponse<String> send(HttpRequest request) {
        process.requireAlive();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "prometheus did not answer " + request.uri() + ": " + e.getMessage() + "; its log "
                            + process.log().toAbsolutePath() + " ends with:" + System.lineSeparator()
                            + process.tail(20),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking prometheus " + request.uri(), e);
        }
    }

    /** SIGTERM (a clean TSDB shutdown), SIGKILL after a grace period; then its data directory is deleted. */
    @Override
    public void close() {
        process.close();
        LocalControlPlane.deleteRecursively(dataDir);
    }
}
