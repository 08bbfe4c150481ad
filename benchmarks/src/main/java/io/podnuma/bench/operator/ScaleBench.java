package io.podnuma.bench.operator;

import io.podnuma.bench.agent.ProcessUsage;
import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.operator.OperatorProcess;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The operator at scale (issue 10, "Scale benchmark"): thousands of padded Node objects and tens of overlapping
 * policies on the local control plane (etcd and kube-apiserver only: no controller-manager, scheduler or kwok, so the
 * only API traffic is the operator's and the bench's), and the operator as a process. It measures the time from the
 * operator's start to every status converged, the API writes that took (from the API server's {@code
 * apiserver_request_total}), the writes in a steady window (goal 0), the writes one relabelling and one spec change
 * cause, a restart's full resync, and the operator's RSS and CPU. Figures are printed ({@link ScaleTable}), never
 * asserted. See benchmarks/README.md and {@code BENCH_ONLY=operator scripts/bench}.
 */
public final class ScaleBench {

    /** What the operator writes; the filter of {@code apiserver_request_total}. Leases are left out: see below. */
    static final Set<String> OPERATOR_RESOURCES = Set.of(
            "nodes", "numaresourcepolicies", "configmaps", "daemonsets", "services", "events", "servicemonitors");

    /** The Deployment's flags: {@code operator/jvm.flags}, read once. */
    static final List<String> DEFAULT_JVM_FLAGS = OperatorProcess.jvmFlags();

    static final String NAMESPACE = "podnuma-system";

    /**
     * Leader election off: a Lease renewal every few seconds would be the only steady-state write, and the metric
     * cannot tell it from the API server's own Leases.
     */
    static final Map<String, String> OPERATOR_SETTINGS =
            Map.of("namespace", NAMESPACE, "agent-image", "podnuma/node-agent:bench", "leader-election", "false");

    /** The operator's /metrics, or empty while it does not answer yet. */
    private static String metricsOrEmpty(OperatorProcess op) throws InterruptedException {
        try {
            return op.metrics();
        } catch (IOException notYet) {
            return "";
        }
    }

    /**
     * @param nodes Node objects (padded, {@link NodePadding})
     * @param policies policies and pools ({@link PoolLayout}); a multiple of 10
     * @param steady the window with nothing changing
     * @param relabel nodes moved from one pool to another in the first change
     * @param parallel node creations in flight
     * @param timeout how long each convergence may take before the bench gives up
     */
    public record Settings(
            int nodes,
            int policies,
            Duration steady,
            int relabel,
            int parallel,
            Duration timeout,
            Duration tail,
            List<String> jvmFlags) {

        public Settings {
            jvmFlags = List.copyOf(jvmFlags);
        }

        public static Settings full() {
            return new Settings(
                    5_000,
                    50,
                    Duration.ofSeconds(60),
                    10,
                    16,
                    Duration.ofMinutes(5),
                    Duration.ofSeconds(5),
                    DEFAULT_JVM_FLAGS);
        }

        public static Settings quick() {
            return new Settings(
                    500,
                    10,
                    Duration.ofSeconds(20),
                    10,
                    16,
                    Duration.ofMinutes(3),
                    Duration.ofSeconds(5),
                    DEFAULT_JVM_FLAGS);
        }

        Settings with(String option, String value) {
            try {
                return switch (option) {
                    case "--nodes" ->
                        new Settings(
                                Integer.parseInt(value), policies, steady, relabel, parallel, timeout, tail, jvmFlags);
                    case "--policies" ->
                        new Settings(
                                nodes, Integer.parseInt(value), steady, relabel, parallel, timeout, tail, jvmFlags);
                    case "--steady-seconds" ->
                        new Settings(
                                nodes,
                                policies,
                                Duration.ofSeconds(Long.parseLong(value)),
                                relabel,
                                parallel,
                                timeout,
                                tail,
                                jvmFlags);
                    case "--jvm-flags" ->
                        new Settings(
                                nodes,
                                policies,
                                steady,
                                relabel,
                                parallel,
                                timeout,
                                tail,
                                List.of(value.strip().split("\\s+")));
                    default ->
                        throw new IllegalArgumentException("unknown option " + option
                                + ": allowed --quick, --nodes, --policies, --steady-seconds, --jvm-flags, --out");
                };
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " \"" + value + "\": allowed a whole number");
            }
        }
    }

    /** Writes by the operator in one phase, and how long the phase took to converge. */
    public record Phase(String name, Duration converged, ApiRequestCounts writes, long minimum, String note) {}

    /** CPU over a window in millicores, and RSS. */
    public record Usage(double millicores, Duration window) {}

    public record Result(
            Settings settings,
            ScaleCluster.Created created,
            Phase cold,
            Usage coldCpu,
            long coldPeakRssKib,
            Phase settle,
            Phase steady,
            Usage steadyCpu,
            long settledRssKib,
            Phase relabel,
            Phase specChange,
            Phase resync,
            Usage resyncCpu,
            long resyncPeakRssKib,
            long resyncSettledRssKib,
            long idleJvmRssKib,
            String loadBefore,
            String loadAfter) {}

    private final LocalControlPlane cp;
    private final Settings s;
    private final Path work;
    private final PrintStream log;
    private final ScaleCluster cluster;
    private final long ticksPerSecond = ProcessUsage.ticksPerSecond();

    ScaleBench(LocalControlPlane cp, Settings settings, Path work, PrintStream log) {
        this.cp = cp;
        this.s = settings;
        this.work = work;
        this.log = log;
        this.cluster = new ScaleCluster(cp.client());
    }

    Result run() throws Exception {
        String loadBefore = uptime();
        log.println("== operator scale bench: " + s + "; " + loadBefore);
        cp.installCrds(GeneratedCrds.numaResourcePolicies(), GeneratedCrds.numaNodeStates());
        cp.ensureNamespace(NAMESPACE);
        PoolLayout layout = PoolLayout.of(s.nodes(), s.policies());
        ScaleCluster.Created created = cluster.createNodes(layout, s.parallel(), Instant.now());
        log.printf(
                "created %d nodes in %d ms (%d in flight): %.0f bytes of JSON each as sent, %d as stored (node 0, with"
                        + " managedFields and the admission's taint)%n",
                created.nodes(), created.millis(), s.parallel(), created.averageSentBytes(), created.storedBytes());
        cluster.createPolicies(layout);
        log.printf("created %d policies%n", layout.policies().size());

        long idleRss = idleJvmRss();
        log.printf("idle JVM with the same flags: %.1f MiB%n", idleRss / 1024.0);

        Phase cold;
        Usage coldCpu;
        long coldPeak;
        Phase settle;
        Phase steady;
        Usage steadyCpu;
        long settled;
        Phase relabel;
        Phase spec;
        try (OperatorProcess op =
                OperatorProcess.start(work, "operator-1", cp.kubeconfig(), OPERATOR_SETTINGS, s.jvmFlags())) {
            ApiRequestCounts before = cluster.requestCounts();
            Duration took = awaitConverged(op, layout, op.startNanos());
            long ticks = ProcessUsage.cpuTicks(op.pid());
            ApiRequestCounts after = cluster.requestCounts();
            coldCpu = usage(ticks, Duration.ofNanos(System.nanoTime() - op.startNanos()));
            coldPeak = op.peakRssKib();
            long labelled = layout.expectedLabels().size();
            cold = new Phase(
                    "start → converged",
                    took,
                    operatorWrites(after, before),
                    labelled + 5L * layout.policies().size(),
                    "minimum: a label per node, and per policy a finalizer, ConfigMap, DaemonSet, Service and one"
                            + " status");
            log.printf(
                    "converged after %d ms: %s%n",
                    took.toMillis(), cold.writes().describe());

            settle = window(
                    "tail: " + s.tail().multipliedBy(2).toSeconds() + " s after convergence",
                    s.tail().multipliedBy(2));
            long t0 = ProcessUsage.cpuTicks(op.pid());
            steady = window("steady window, " + s.steady().toSeconds() + " s", s.steady());
            steadyCpu = usage(ProcessUsage.cpuTicks(op.pid()) - t0, s.steady());
            settled = op.rssKib();
            log.printf(
                    "steady: %s; %.2f m; RSS %.1f MiB%n",
                    steady.writes().describe(), steadyCpu.millicores(), settled / 1024.0);

            int from = s.policies() / 5;
            PoolLayout moved = layout.moving(s.relabel(), from, from + 1);
            List<Integer> changed = layout.differences(moved);
            ApiRequestCounts b1 = cluster.requestCounts();
            long start = System.nanoTime();
            cluster.relabel(moved, changed);
            Duration relabelTook = awaitConverged(op, moved, start);
            sleep(s.tail());
            ApiRequestCounts a1 = cluster.requestCounts();
            relabel = new Phase(
                    "relabel " + changed.size() + " nodes " + PoolLayout.poolValue(from) + " → "
                            + PoolLayout.poolValue(from + 1),
                    relabelTook,
                    operatorWrites(a1, b1).minus(new ApiRequestCounts.Key("PATCH", "", "nodes", ""), changed.size()),
                    changed.size() + 2L,
                    "the bench's " + changed.size() + " node patches taken off; minimum: the labels and two statuses;"
                            + " counted to " + s.tail().toSeconds() + " s after convergence");
            log.printf(
                    "relabel converged after %d ms: %s%n",
                    relabelTook.toMillis(), relabel.writes().describe());

            String policy = PoolLayout.policyName(from + 2);
            ApiRequestCounts b2 = cluster.requestCounts();
            start = System.nanoTime();
            cluster.changeSpec(policy);
            Duration specTook = awaitConverged(op, moved, start);
            sleep(s.tail());
            ApiRequestCounts a2 = cluster.requestCounts();
            spec = new Phase(
                    "spec change of " + policy,
                    specTook,
                    operatorWrites(a2, b2)
                            .minus(new ApiRequestCounts.Key("PATCH", "podnuma.io", "numaresourcepolicies", ""), 1),
                    3,
                    "the bench's patch taken off; minimum: ConfigMap, DaemonSet, status");
            log.printf(
                    "spec change converged after %d ms: %s%n",
                    specTook.toMillis(), spec.writes().describe());
            layout = moved;
        }

        ApiRequestCounts b3 = cluster.requestCounts();
        Phase resync;
        Usage resyncCpu;
        long resyncPeak;
        long resyncSettled;
        try (OperatorProcess op =
                OperatorProcess.start(work, "operator-2", cp.kubeconfig(), OPERATOR_SETTINGS, s.jvmFlags())) {
            Duration took = awaitReconciled(op, layout);
            long ticks = ProcessUsage.cpuTicks(op.pid());
            resyncCpu = usage(ticks, Duration.ofNanos(System.nanoTime() - op.startNanos()));
            sleep(s.tail().multipliedBy(2));
            ApiRequestCounts a3 = cluster.requestCounts();
            resyncPeak = op.peakRssKib();
            resyncSettled = op.rssKib();
            resync = new Phase(
                    "restart → every policy reconciled (full resync)",
                    took,
                    operatorWrites(a3, b3),
                    0,
                    "counted to " + s.tail().multipliedBy(2).toSeconds() + " s after the last policy was reconciled");
            log.printf(
                    "resync after %d ms: %s%n", took.toMillis(), resync.writes().describe());
        }
        return new Result(
                s,
                created,
                cold,
                coldCpu,
                coldPeak,
                settle,
                steady,
                steadyCpu,
                settled,
                relabel,
                spec,
                resync,
                resyncCpu,
                resyncPeak,
                resyncSettled,
                idleRss,
                loadBefore,
                uptime());
    }

    private ApiRequestCounts operatorWrites(ApiRequestCounts after, ApiRequestCounts before) {
        return after.since(before).writesOn(OPERATOR_RESOURCES);
    }

    private Phase window(String name, Duration length) throws Exception {
        ApiRequestCounts before = cluster.requestCounts();
        sleep(length);
        return new Phase(name, length, operatorWrites(cluster.requestCounts(), before), 0, "");
    }

    private Usage usage(long ticks, Duration window) {
        double seconds = window.toNanos() / 1e9;
        return new Usage(ticks * 1000.0 / ticksPerSecond / seconds, window);
    }

    /**
     * Polls every 500 ms until {@link Convergence} holds: the policies first (50 small objects), then the nodes'
     * labels (metadata only). The figure is from {@code startNanos} to the poll that saw it (so up to one poll
     * late).
     */
    private Duration awaitConverged(OperatorProcess op, PoolLayout layout, long startNanos) throws Exception {
        Map<String, Integer> matched = layout.expectedMatched();
        Map<String, String> labels = layout.expectedLabels();
        long deadline = startNanos + s.timeout().toNanos();
        String last = "";
        while (true) {
            op.requireAlive();
            List<String> pending = Convergence.pendingPolicies(cluster.policies(), matched, 3);
            if (pending.isEmpty()) {
                int wrong = Convergence.wrongLabels(cluster.policyLabels(), labels);
                if (wrong == 0) {
                    return Duration.ofNanos(System.nanoTime() - startNanos);
                }
                last = wrong + " nodes labelled otherwise";
            } else {
                last = String.join("; ", pending);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not converged within " + s.timeout() + ": " + last
                        + "; the operator's log ends:\n" + op.logTail());
            }
            sleep(Duration.ofMillis(500));
        }
    }

    /**
     * After a restart nothing changes, so the status cannot show the resync: the operator's own gauge
     * {@code podnuma_operator_nodes{policy,state="matched"}} appears for a policy when its first reconcile is done.
     */
    private Duration awaitReconciled(OperatorProcess op, PoolLayout layout) throws Exception {
        Map<String, Integer> matched = layout.expectedMatched();
        long deadline = op.startNanos() + s.timeout().toNanos();
        while (true) {
            op.requireAlive();
            String text = metricsOrEmpty(op);
            if (!text.isEmpty() && reconciledPolicies(text, matched) == matched.size()) {
                return Duration.ofNanos(System.nanoTime() - op.startNanos());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not every policy reconciled within " + s.timeout()
                        + "; the operator's log ends:\n" + op.logTail());
            }
            sleep(Duration.ofMillis(200));
        }
    }

    static int reconciledPolicies(String metricsText, Map<String, Integer> matched) {
        int n = 0;
        for (PrometheusText.Sample sample : PrometheusText.parse(metricsText).samples()) {
            if (sample.name().equals("podnuma_operator_nodes")
                    && "matched".equals(sample.labels().get("state"))
                    && matched.containsKey(sample.labels().get("policy"))
                    && sample.value() == matched.get(sample.labels().get("policy"))) {
                n++;
            }
        }
        return n;
    }

    /** RSS of a JVM with the operator's flags doing nothing, after 5 s. */
    private long idleJvmRss() throws Exception {
        Path classes = work.resolve("idle-jvm");
        String resource = io.podnuma.bench.agent.IdleJvm.class.getName().replace('.', '/') + ".class";
        Path file = classes.resolve(resource);
        Files.createDirectories(file.getParent());
        try (var in = ScaleBench.class.getClassLoader().getResourceAsStream(resource)) {
            Files.write(file, in.readAllBytes());
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(s.jvmFlags());
        cmd.addAll(List.of("-cp", classes.toString(), io.podnuma.bench.agent.IdleJvm.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            sleep(Duration.ofSeconds(5));
            return ProcessUsage.rssKib(p.pid());
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void sleep(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }

    static String uptime() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "(no /proc/loadavg)";
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("cannot delete " + dir + ": " + e.getMessage());
        }
    }

    /** The operators' logs outlive the temporary directory, for a post-mortem. */
    private static void keepLogs(Path work, Path logs) {
        try (Stream<Path> files = Files.list(work)) {
            Files.createDirectories(logs);
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .toList()) {
                Files.copy(f, logs.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            System.out.println("operator logs: " + logs);
        } catch (IOException e) {
            System.err.println("cannot keep the operator logs: " + e.getMessage());
        }
    }

    public static void main(String[] args) throws Exception {
        Settings settings = List.of(args).contains("--quick") ? Settings.quick() : Settings.full();
        Path out = null;
        try {
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--quick")) {
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                String option = args[i];
                String value = args[++i];
                if (option.equals("--out")) {
                    out = Path.of(value);
                } else {
                    settings = settings.with(option, value);
                }
            }
            new PoolLayout(settings.nodes(), settings.policies(), new TreeMap<>());
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        }
        Path work = Files.createTempDirectory("podnuma-operator-bench");
        Path logs =
                (out == null ? Path.of("target", "bench") : out.toAbsolutePath().getParent()).resolve("operator-logs");
        Result result;
        try (LocalControlPlane cp = LocalControlPlane.start()) {
            result = new ScaleBench(cp, settings, work, System.out).run();
        } catch (ControlPlaneUnavailableException e) {
            System.err.println("operator bench skipped: " + e.getMessage());
            System.exit(3);
            return;
        } finally {
            keepLogs(work, logs);
            deleteTree(work);
        }
        io.podnuma.bench.ResultFiles.printAndKeep(ScaleTable.render(result), out);
        System.exit(0);
    }
}
