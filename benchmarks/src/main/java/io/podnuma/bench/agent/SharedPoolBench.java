package io.podnuma.bench.agent;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.grpc.ManagedChannel;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.bench.agent.AgentBench.PoolResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.testkit.agent.AgentProcess;
import io.podnuma.testkit.host.CgroupDriverName;
import io.podnuma.testkit.host.KubeletLikeHost;
import io.podnuma.testkit.host.PodContainer;
import io.podnuma.testkit.pods.RunningPods;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PromHistogram;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The shared-pool measure of {@link AgentBench}: on a node of its own, N containers (real cgroups, a real process
 * each) run on the node shared pool; a Guaranteed pod whose one exclusive CPU comes out of the pool is created, then
 * deleted, again and again. Each change is timed to the moment the last of the N containers' {@code cpuset.cpus}
 * shows the new pool (polled), from the API call returning, and from the call being sent against the API server's
 * delivery floor: a watch in this JVM on the same pods, timed from the same call to its event. (From the response
 * the floor would be about zero, often below: the API server sends the event and the response at about the same
 * time, so only the origin before both gives a ratio.)
 */
final class SharedPoolBench {

    static final String POOL_HISTOGRAM = "podnuma_shared_pool_propagation_seconds";

    /** Containers per pod on the pool: the kubelet's pods usually have a few. */
    static final int CONTAINERS_PER_POD = 5;

    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Between two changes, so kwok's status updates of the pod just created are behind. */
    private static final Duration GAP = Duration.ofMillis(100);

    private final ControlPlane cp;
    private final AgentBench.Settings s;
    private final Path workDir;
    private final PrintStream log;

    SharedPoolBench(ControlPlane cp, AgentBench.Settings settings, Path workDir, PrintStream log) {
        this.cp = cp;
        this.s = settings;
        this.workDir = workDir;
        this.log = log;
    }

    PoolResult run(String suffix) throws Exception {
        String ns = "bench-pool-" + suffix;
        String node = null;
        try (KubeletLikeHost host = KubeletLikeHost.create(CgroupDriverName.SYSTEMD, "bench")) {
            int podCount = (s.poolContainers() + CONTAINERS_PER_POD - 1) / CONTAINERS_PER_POD;
            node = cp.ensureNode(
                    "bench-pool-" + suffix,
                    Map.of("podnuma.io/policy", AgentBench.POLICY),
                    Map.of(
                            "cpu",
                            String.valueOf(host.cpus().size()),
                            "memory",
                            "8Gi",
                            "pods",
                            String.valueOf(podCount + 1)));
            cp.kubectl("create", "namespace", ns).assertSuccess();
            log.printf(
                    "shared pool: %d containers in %d Burstable pods on node %s, %d changes each way%n",
                    s.poolContainers(), podCount, node, s.poolChanges());
            List<Pod> pods = new ArrayList<>();
            for (int i = 0; i < podCount; i++) {
                pods.add(SamplePods.benchShared(node, "pool-shared-" + i, CONTAINERS_PER_POD));
            }
            List<PodContainer> onPool = startContainers(host, AgentBench.runningPods(cp, ns, pods));
            try (AgentProcess agent =
                    AgentProcess.withConfig(workDir, AgentBench.config(node, host), cp.kubeconfig())) {
                agent.start(s.jvmFlags());
                agent.awaitReady(Duration.ofSeconds(120));
                PoolResult result = measure(host, node, ns, onPool, agent);
                // SIGTERM, so that what the JVM writes at exit is written (e.g. a flight recording asked for
                // in --jvm-flags); the close below only kills an agent that did not stop.
                agent.terminate(Duration.ofSeconds(30));
                return result;
            }
        } finally {
            cp.kubectl("delete", "namespace", ns, "--wait=false", "--ignore-not-found");
            if (node != null) {
                cp.kubectl("delete", "node", node, "--wait=false", "--ignore-not-found");
            }
        }
    }

    /**
     * Starts the first {@code poolContainers} containers of the pods, in the order the agent writes them (by cgroup
     * path), so that polling them in this order reads the last one written last.
     */
    private List<PodContainer> startContainers(KubeletLikeHost host, List<Pod> pods) throws IOException {
        List<PodContainer> all = new ArrayList<>();
        for (Pod p : pods) {
            host.createPod(RunningPods.qos(p), p.getMetadata().getUid());
            for (var st : p.getStatus().getContainerStatuses()) {
                all.add(PodContainer.fromStatus(
                        RunningPods.qos(p), p.getMetadata().getUid(), st.getContainerID()));
            }
        }
        all.sort(Comparator.comparing(c -> host.path(c).toString()));
        List<PodContainer> started = List.copyOf(all.subList(0, s.poolContainers()));
        host.prestart(started.size());
        for (PodContainer c : started) {
            host.startContainer(c);
        }
        return started;
    }

    private PoolResult measure(
            KubeletLikeHost host, String node, String ns, List<PodContainer> onPool, AgentProcess agent)
            throws Exception {
        CpuSet wide = AgentBench.cpuSet(host.cpus());
        if (awaitAll(host, onPool, wide) < 0) {
            throw new IllegalStateException("the " + onPool.size() + " containers on the shared pool did not all hold "
                    + wide + " within 5 s of the agent being ready");
        }
        Events events = new Events();
        ManagedChannel channel = DomainSocketChannels.open(agent.socket());
        try (Watch watch = cp.client().pods().inNamespace(ns).watch(events)) {
            // One untimed change each way: the code paths warm, and the narrow pool is read from the agent.
            Pod first = create(ns, node, "pool-excl-warmup");
            CpuSet narrow = awaitNarrowed(host, onPool.getFirst(), wide);
            awaitAll(host, onPool, narrow);
            TimeUnit.NANOSECONDS.sleep(GAP.toNanos()); // PodResources answers from what the agent published after
            CpuSet bubble = AgentBench.bubbleOf(channel, first);
            if (!bubble.union(narrow).equals(wide) || bubble.intersects(narrow)) {
                throw new IllegalStateException("the pool shrank to " + narrow + " while the pod got " + bubble
                        + ": expected the two to split " + wide);
            }
            delete(ns, first);
            awaitAll(host, onPool, wide);
            TimeUnit.NANOSECONDS.sleep(GAP.toNanos());

            PromHistogram before = PromHistogram.parse(agent.metrics(), POOL_HISTOGRAM);
            Series shrink = new Series(s.poolChanges());
            Series grow = new Series(s.poolChanges());
            for (int i = 0; i < s.poolChanges(); i++) {
                String name = "pool-excl-" + i;
                long sent = System.nanoTime();
                Pod p = create(ns, node, name);
                long returned = System.nanoTime();
                shrink.add(sent, returned, awaitAll(host, onPool, narrow), events.added(name));
                TimeUnit.NANOSECONDS.sleep(GAP.toNanos());

                sent = System.nanoTime();
                delete(ns, p);
                returned = System.nanoTime();
                grow.add(sent, returned, awaitAll(host, onPool, wide), events.deleted(name));
                TimeUnit.NANOSECONDS.sleep(GAP.toNanos());
            }
            TimeUnit.MILLISECONDS.sleep(200);
            // In order, so that a slow tail tells a cold start of the path (the first changes) from a busy machine.
            log.println("shared pool: shrink from the call returning, in order (ms): " + shrink.inOrder());
            log.println("shared pool: grow from the call returning, in order (ms): " + grow.inOrder());
            PromHistogram agentPool =
                    PromHistogram.parse(agent.metrics(), POOL_HISTOGRAM).minus(before);
            return new PoolResult(
                    onPool.size(),
                    s.poolChanges(),
                    shrink.propagated(),
                    shrink.afterReturn(),
                    shrink.watched(),
                    grow.propagated(),
                    grow.afterReturn(),
                    grow.watched(),
                    LatencySummary.of(shrink.calls()),
                    LatencySummary.of(grow.calls()),
                    sweeps(host, onPool, wide),
                    agentPool,
                    shrink.timeouts() + grow.timeouts(),
                    shrink.unwatched() + grow.unwatched(),
                    shrink.eventsBeforeReturn() + grow.eventsBeforeReturn(),
                    wide,
                    narrow);
        } finally {
            channel.shutdownNow();
        }
    }

    private Pod create(String ns, String node, String name) {
        return cp.client()
                .pods()
                .inNamespace(ns)
                .resource(SamplePods.benchPinned(node, name, 1))
                .create();
    }

    private void delete(String ns, Pod p) {
        // Grace period 0: the object is gone when the call returns, as after a kubelet confirmed the stop.
        cp.client()
                .pods()
                .inNamespace(ns)
                .withName(p.getMetadata().getName())
                .withGracePeriod(0)
                .delete();
    }

    /**
     * Polls the containers in the agent's write order, each until it holds {@code cpus}.
     *
     * @return {@link System#nanoTime()} when the last one was seen holding it, or -1 after 5 s
     */
    private long awaitAll(KubeletLikeHost host, List<PodContainer> containers, CpuSet cpus) throws IOException {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        long last = -1;
        for (PodContainer c : containers) {
            last = CpusetTiming.awaitCpus(host.dir(c), cpus, s.pollNanos(), Math.max(0, deadline - System.nanoTime()));
            if (last < 0) {
                return -1;
            }
        }
        return last;
    }

    private CpuSet awaitNarrowed(KubeletLikeHost host, PodContainer c, CpuSet wide) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (System.nanoTime() < deadline) {
            CpuSet now = CpusetTiming.cpusetOf(host.dir(c));
            if (!now.isEmpty() && !now.equals(wide)) {
                return now;
            }
            TimeUnit.NANOSECONDS.sleep(s.pollNanos());
        }
        throw new IllegalStateException("the shared pool did not shrink from " + wide
                + " within 5 s of a Guaranteed pod with one CPU being created (container " + host.path(c) + ")");
    }

    /** What polling adds: one pass reading every container's {@code cpuset.cpus} once, nothing changing. */
    private LatencySummary sweeps(KubeletLikeHost host, List<PodContainer> containers, CpuSet cpus) throws IOException {
        long[] nanos = new long[50];
        for (int i = 0; i < nanos.length; i++) {
            long t0 = System.nanoTime();
            for (PodContainer c : containers) {
                if (!CpusetTiming.cpusetOf(host.dir(c)).equals(cpus)) {
                    throw new IllegalStateException(host.path(c) + " left the shared pool " + cpus + " while idle");
                }
            }
            nanos[i] = System.nanoTime() - t0;
        }
        return LatencySummary.of(nanos);
    }

    /** When the bench JVM's watch saw each pod added and deleted ({@link System#nanoTime()}). */
    static final class Events implements Watcher<Pod> {
        private final Map<String, Long> added = new ConcurrentHashMap<>();
        private final Map<String, Long> deleted = new ConcurrentHashMap<>();

        @Override
        public void eventReceived(Action action, Pod pod) {
            long now = System.nanoTime();
            String name = pod.getMetadata().getName();
            switch (action) {
                case ADDED -> added.putIfAbsent(name, now);
                case DELETED -> deleted.putIfAbsent(name, now);
                default -> {}
            }
        }

        @Override
        public void onClose(WatcherException cause) {}

        long added(String name) throws InterruptedException {
            return await(added, name);
        }

        long deleted(String name) throws InterruptedException {
            return await(deleted, name);
        }

        private static long await(Map<String, Long> seen, String name) throws InterruptedException {
            long deadline = System.nanoTime() + TIMEOUT_NANOS;
            while (System.nanoTime() < deadline) {
                Long t = seen.get(name);
                if (t != null) {
                    return t;
                }
                TimeUnit.MILLISECONDS.sleep(1);
            }
            return -1;
        }
    }

    /**
     * One direction's timings ({@link System#nanoTime()}): the call sent, its response, the last container seen
     * holding the new pool (-1: not within 5 s), the watch event (-1: none).
     */
    static final class Series {
        private final long[] propagated;
        private final long[] afterReturn;
        private final long[] watched;
        private final long[] calls;
        private final long[] inOrder;
        private int n;
        private int propagatedCount;
        private int watchedCount;
        private int eventsBeforeReturn;

        Series(int size) {
            propagated = new long[size];
            afterReturn = new long[size];
            watched = new long[size];
            calls = new long[size];
            inOrder = new long[size];
        }

        void add(long sent, long returned, long lastHeld, long event) {
            inOrder[n] = lastHeld < 0 ? Long.MIN_VALUE : lastHeld - returned;
            calls[n++] = returned - sent;
            if (lastHeld >= 0) {
                propagated[propagatedCount] = lastHeld - sent;
                afterReturn[propagatedCount++] = lastHeld - returned;
            }
            if (event >= 0) {
                watched[watchedCount++] = event - sent;
                if (event < returned) {
                    eventsBeforeReturn++; // the API server sent the event before the response
                }
            }
        }

        LatencySummary propagated() {
            return propagatedCount == 0 ? null : LatencySummary.of(Arrays.copyOf(propagated, propagatedCount));
        }

        LatencySummary afterReturn() {
            return propagatedCount == 0 ? null : LatencySummary.of(Arrays.copyOf(afterReturn, propagatedCount));
        }

        LatencySummary watched() {
            return watchedCount == 0 ? null : LatencySummary.of(Arrays.copyOf(watched, watchedCount));
        }

        /** Each change's time from the call returning in milliseconds, in the order of the changes; "-" for none seen. */
        String inOrder() {
            StringJoiner out = new StringJoiner(" ");
            for (int i = 0; i < n; i++) {
                out.add(inOrder[i] == Long.MIN_VALUE ? "-" : String.format(Locale.ROOT, "%.1f", inOrder[i] / 1e6));
            }
            return out.toString();
        }

        long[] calls() {
            return Arrays.copyOf(calls, n);
        }

        int timeouts() {
            return n - propagatedCount;
        }

        int unwatched() {
            return n - watchedCount;
        }

        int eventsBeforeReturn() {
            return eventsBeforeReturn;
        }
    }
}
