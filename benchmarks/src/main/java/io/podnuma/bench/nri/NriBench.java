package io.podnuma.bench.nri;

import io.podnuma.agent.config.ExclusiveCpuQuota;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.nri.CreateResult;
import io.podnuma.agent.nri.NriEvent;
import io.podnuma.agent.nri.NriHandler;
import io.podnuma.agent.nri.NriPlugin;
import io.podnuma.agent.nri.NriPluginSettings;
import io.podnuma.agent.nri.RuntimeInfo;
import io.podnuma.agent.nri.SynchronizeResult;
import io.podnuma.agent.runtime.birth.BirthPins;
import io.podnuma.agent.runtime.birth.BirthView;
import io.podnuma.agent.runtime.nri.NriPinning;
import io.podnuma.agent.runtime.pin.WantedPins;
import io.podnuma.bench.BenchMachine;
import io.podnuma.bench.FigureTable;
import io.podnuma.bench.FigureTable.Row;
import io.podnuma.bench.NodeLoad;
import io.podnuma.bench.SimulateWorkload;
import io.podnuma.bench.agent.LatencySummary;
import io.podnuma.bench.agent.PinFigures;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.CreateContainerResponse;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.testkit.nri.NriMessages;
import io.podnuma.testkit.nri.NriRuntimeBinary;
import io.podnuma.testkit.nri.NriRuntimeHarness;
import io.podnuma.testkit.nri.NriStubPlugin;
import io.podnuma.testkit.nri.StubOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * CreateContainer through the upstream NRI adaptation (the test kit's Go harness, nri v0.12.3: what containerd 2.2+
 * embeds) to the agent's NRI plugin, whose handler is the agent's own decision path ({@link NriPinning} over
 * {@link BirthPins}) on a realistic node: the 110 pods of {@link SimulateWorkload} admitted by the engine on the
 * 384-CPU bench machine. The round trip is what the adaptation measures around its {@code CreateContainer} (the
 * harness's {@code durationNanos}); the baseline is the upstream Go stub plugin through the same adaptation in the
 * same run. Also the time inside the handler. Figures are printed, never asserted.
 */
public final class NriBench {

    /** Calls measured, and calls made before measuring (JIT warm-up of both sides). */
    record Settings(int calls, int warmup) {
        static Settings full() {
            return new Settings(2_000, 500);
        }

        static Settings quick() {
            return new Settings(200, 100);
        }
    }

    /** One plugin's figures: the round trips, and how many answers carried a cpuset. */
    record Run(LatencySummary roundTrip, int pinned) {}

    record Result(int pods, Run plugin, Run stub, LatencySummary inHandler) {}

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Settings settings;
    private final Path work;

    private NriBench(Settings settings, Path work) {
        this.settings = settings;
        this.work = work;
    }

    Result run() throws Exception {
        NriRuntimeBinary binary = NriRuntimeHarness.build(work.resolve("bin"));
        CpuTopology topology = BenchMachine.topology();
        NodeState state = new SimulateWorkload(topology).run();
        List<String> podUids = List.copyOf(state.pods().keySet());
        CpuSet.Builder mems = CpuSet.builder();
        topology.numaNodes().forEach(n -> mems.add(n.id()));
        BirthPins pins = new BirthPins(new WantedPins(mems.build()));
        BirthView view = new BirthView(state, true, CpuSet.empty());
        NriPinning pinning = new NriPinning(
                (uid, container) -> pins.decide(view, uid, container),
                ExclusiveCpuQuota.KEEP,
                new AgentMetrics(topology));
        Timed handler = new Timed(pinning);

        Run plugin;
        Path pluginSocket = work.resolve("java/nri.sock");
        try (NriRuntimeHarness runtime = NriRuntimeHarness.start(binary, pluginSocket, Duration.ofSeconds(2));
                NriPlugin p = NriPlugin.start(
                        new NriPluginSettings(
                                pluginSocket, "podnuma", "40", Duration.ofMillis(20), Duration.ofMillis(500)),
                        handler)) {
            pinning.plugin(p);
            runtime.awaitPlugins(1, WAIT);
            plugin = creates(runtime, podUids, "java");
        }
        LatencySummary inHandler = handler.summary(settings.calls());

        Run stub;
        Path stubSocket = work.resolve("go/nri.sock");
        try (NriRuntimeHarness runtime = NriRuntimeHarness.start(binary, stubSocket, Duration.ofSeconds(2));
                NriStubPlugin s = NriStubPlugin.start(binary, stubSocket, StubOptions.answering("2-3", "0"))) {
            runtime.awaitPlugins(1, WAIT);
            stub = creates(runtime, podUids, "go");
        }
        return new Result(podUids.size(), plugin, stub, inHandler);
    }

    /** Warm-up, then the measured CreateContainer calls, each for the next pod of the node (round robin). */
    private Run creates(NriRuntimeHarness runtime, List<String> podUids, String prefix) throws Exception {
        long[] nanos = new long[settings.calls()];
        int pinned = 0;
        for (int i = 0; i < settings.warmup() + settings.calls(); i++) {
            String uid = podUids.get(i % podUids.size());
            PodSandbox pod = NriMessages.pod("sandbox-" + uid, "default", uid, uid);
            Container container =
                    NriMessages.containerdSized("%s-%05d".formatted(prefix, i), pod.getId(), NodeLoad.CONTAINER);
            var answered = runtime.createContainer(pod, container).answered();
            if (i >= settings.warmup()) {
                nanos[i - settings.warmup()] = answered.took().toNanos();
                if (!cpus(answered.response()).isEmpty()) {
                    pinned++;
                }
            }
        }
        return new Run(LatencySummary.of(nanos), pinned);
    }

    private static String cpus(CreateContainerResponse response) {
        return response.getAdjust().getLinux().getResources().getCpu().getCpus();
    }

    /** The handler with the time of each CreateContainer recorded. */
    private static final class Timed implements NriHandler {
        private final NriHandler inner;
        private final ConcurrentLinkedQueue<Long> createNanos = new ConcurrentLinkedQueue<>();

        Timed(NriHandler inner) {
            this.inner = inner;
        }

        /** The last {@code n} calls (the measured ones). */
        LatencySummary summary(int n) {
            long[] all = createNanos.stream().mapToLong(Long::longValue).toArray();
            long[] last = new long[Math.min(n, all.length)];
            System.arraycopy(all, all.length - last.length, last, 0, last.length);
            return LatencySummary.of(last);
        }

        @Override
        public void connected(RuntimeInfo runtime) {
            inner.connected(runtime);
        }

        @Override
        public SynchronizeResult synchronize(List<PodSandbox> pods, List<Container> containers) {
            return inner.synchronize(pods, containers);
        }

        @Override
        public CreateResult createContainer(PodSandbox pod, Container container) {
            long t0 = System.nanoTime();
            CreateResult r = inner.createContainer(pod, container);
            createNanos.add(System.nanoTime() - t0);
            return r;
        }

        @Override
        public List<ContainerUpdate> updateContainer(PodSandbox pod, Container container, LinuxResources resources) {
            return inner.updateContainer(pod, container, resources);
        }

        @Override
        public List<ContainerUpdate> stopContainer(PodSandbox pod, Container container) {
            return inner.stopContainer(pod, container);
        }

        @Override
        public void event(NriEvent event, PodSandbox pod, Optional<Container> container) {
            inner.event(event, pod, container);
        }

        @Override
        public void disconnected(String reason) {
            inner.disconnected(reason);
        }
    }

    static String render(Result r, Settings s) {
        LatencySummary j = r.plugin().roundTrip();
        LatencySummary g = r.stub().roundTrip();
        List<Row> rows = List.of(
                row("CreateContainer round trip p50 (adaptation → plugin → adaptation)", j.p50Nanos(), g.p50Nanos()),
                row("CreateContainer round trip p99", j.p99Nanos(), g.p99Nanos()),
                row("CreateContainer round trip max", j.maxNanos(), g.maxNanos()),
                new Row(
                        "Time in the handler p50 (agent decision + adjustment)",
                        ms(r.inHandler().p50Nanos()),
                        "",
                        "",
                        ""),
                new Row("Time in the handler p99", ms(r.inHandler().p99Nanos()), "", "", "< 10 ms"),
                new Row(
                        "Answers carrying a cpuset",
                        r.plugin().pinned() + " / " + j.count(),
                        r.stub().pinned() + " / " + g.count() + " Go stub",
                        "",
                        "all"));
        StringBuilder out = new StringBuilder(FigureTable.render("podnuma NRI plugin", rows));
        out.append('\n');
        out.append("- ")
                .append(s.calls())
                .append(" CreateContainer calls after ")
                .append(s.warmup())
                .append(" warm-up calls, round robin over the ")
                .append(r.pods())
                .append(" pods of the simulate workload on the 384-CPU bench machine; containers of ~1.2 KB.\n");
        out.append("- Baseline: the upstream Go stub plugin (nri v0.12.3 pkg/stub) through the same adaptation, same"
                + " run. Round trips as the adaptation times its CreateContainer (the harness's durationNanos).\n");
        out.append("- ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" CPUs, shared with whatever else runs.\n");
        return out.toString();
    }

    private static Row row(String measure, long nanos, long base) {
        return new Row(
                measure,
                ms(nanos),
                ms(base) + " Go stub",
                base == 0 ? "" : String.format(Locale.ROOT, "%.2f", (double) nanos / base),
                "");
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    /**
     * {@code NriBench [--quick] [--calls N] [--out FILE] [--pins FILE]}: prints the table and writes it to {@code --out},
     * the latencies for the plots to {@code --pins}. Exit 2 on a
     * usage error, 3 when this machine cannot run it (no Go).
     */
    public static void main(String[] args) throws Exception {
        Settings settings = List.of(args).contains("--quick") ? Settings.quick() : Settings.full();
        Path out = null;
        Path pins = null;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--quick")) {
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--out" -> out = Path.of(v);
                    case "--pins" -> pins = Path.of(v);
                    case "--calls" -> settings = new Settings(Integer.parseInt(v), settings.warmup());
                    default ->
                        throw new IllegalArgumentException(
                                "unknown option " + a + ": allowed --quick, --calls, --out, --pins");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        }
        Optional<String> why = NriRuntimeHarness.whyUnavailable();
        if (why.isPresent()) {
            System.err.println("nri bench skipped: " + why.get());
            System.exit(3);
        }
        Path work = Files.createTempDirectory("podnuma-nri-bench");
        Result result = new NriBench(settings, work).run();
        io.podnuma.bench.ResultFiles.printAndKeep(render(result, settings), out);
        if (pins != null) {
            new PinFigures(Map.of(
                            PinFigures.NRI,
                            result.plugin().roundTrip(),
                            PinFigures.NRI_STUB,
                            result.stub().roundTrip(),
                            PinFigures.NRI_HANDLER,
                            result.inHandler()))
                    .write(pins);
        }
        System.exit(0);
    }
}
