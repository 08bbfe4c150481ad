package io.podnuma.agent.cgroup.watch;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.cgroup.watch.RecordingListener.Call;
import io.podnuma.agent.cgroup.watch.RecordingListener.Kind;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.testkit.host.CpusetSubtree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The watcher on this host's real cgroup v1 cpuset hierarchy: a private subtree
 * (the test kit's {@link CpusetSubtree}) stands in for the hierarchy root, and the test makes the
 * kubelet's and the runtimes' directories in it with mkdir, as they would. Prints the mkdir → listener latency over
 * {@value #LATENCY_SAMPLES} containers (not asserted). Needs root; skips with the reason otherwise.
 */
class CgroupTreeWatcherIT {

    private static final Path CPUSET = Path.of("/sys/fs/cgroup/cpuset");
    private static final int LATENCY_SAMPLES = Integer.getInteger("podnuma.watch.samples", 1000);

    private final Random random = new Random();
    private final List<CgroupTreeWatcher> watchers = new ArrayList<>();
    private CpusetSubtree subtree;
    private Path testRoot;

    @BeforeEach
    void privateSubtree() throws IOException {
        // Skips without a v1 cpuset hierarchy (CgroupTreeWatcherTest covers the watcher on ordinary directories)
        // or root.
        subtree = CpusetSubtree.forTest();
        testRoot = subtree.root();
    }

    @AfterEach
    void cleanUp() throws IOException {
        watchers.forEach(CgroupTreeWatcher::close);
        if (subtree != null) {
            subtree.close(); // no process ever joined these cgroups
        }
    }

    private CgroupTreeWatcher watch(KubeletTree tree, ContainerCgroupListener l) throws IOException {
        CgroupTreeWatcher w = CgroupTreeWatcher.start(tree.layout, l);
        watchers.add(w);
        return w;
    }

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void noticesEveryContainerOfAKubeletLikeTreeMadeWithMkdir(CgroupDriver driver) throws Exception {
        KubeletTree tree = new KubeletTree(testRoot, driver, random);
        RecordingListener l = new RecordingListener();
        CgroupTreeWatcher w = watch(tree, l); // kubepods does not exist yet

        Map<CgroupPath, ContainerCgroup> expected = new HashMap<>();
        for (PodQos qos : PodQos.values()) {
            for (ContainerRuntime runtime : ContainerRuntime.values()) {
                String uid = tree.podUid();
                // The sandbox ("pause") first, then two containers, as the runtime creates them.
                for (int i = 0; i < 3; i++) {
                    ContainerCgroup c = tree.container(qos, uid, runtime);
                    CgroupPath p = tree.mkdir(c);
                    Call call = l.next();
                    assertThat(call.kind()).isEqualTo(Kind.APPEARED);
                    assertThat(call.container()).isEqualTo(c);
                    assertThat(call.path()).isEqualTo(p);
                    expected.put(p, c);
                }
            }
        }
        assertThat(expected).hasSize(18);
        // The kernel's control files in every cgroup are no containers; nor is a cgroup inside a container.
        CgroupPath some = expected.keySet().iterator().next();
        tree.mkdirs(some.child("nested"));
        l.assertNoCallBeforeMarkers(tree);
        assertThat(l.view()).isEqualTo(expected);
        assertThat(CgroupTreeScanner.scan(tree.layout))
                .extracting(FoundContainer::path)
                .containsExactlyInAnyOrderElementsOf(expected.keySet());
        tree.rmdir(some.child("nested"));

        for (CgroupPath p : expected.keySet()) {
            tree.rmdir(p);
            Call call = l.next();
            assertThat(call.kind()).isEqualTo(Kind.REMOVED);
            assertThat(call.path()).isEqualTo(p);
        }
        assertThat(w.fullRescans()).isZero();
        l.assertAlternatingPerPath();
    }

    @Test
    void aWriteToAContainersCpusetIsReportedOnTheRealHierarchy() throws Exception {
        KubeletTree tree = new KubeletTree(testRoot, CgroupDriver.SYSTEMD, random);
        ContainerCgroup c = tree.container(PodQos.GUARANTEED, tree.podUid(), ContainerRuntime.CONTAINERD);
        RecordingListener l = new RecordingListener();
        watch(tree, l);
        CgroupPath path = tree.mkdir(c);
        assertThat(l.next().path()).isEqualTo(path);
        // A container beside it, whose cpuset writes mark how far the reports have got.
        CgroupPath marker = tree.mkdir(tree.container(PodQos.GUARANTEED, c.podUid(), ContainerRuntime.CONTAINERD));
        assertThat(l.next().path()).isEqualTo(marker);
        // Every level down to the container gets the subtree's CPUs and memory nodes, as the kubelet's would have.
        Path dir = testRoot;
        for (String segment : path.segments()) {
            dir = dir.resolve(segment);
            Files.writeString(dir.resolve("cpuset.mems"), subtree.mems().toString());
            Files.writeString(dir.resolve("cpuset.cpus"), subtree.cpus().toString());
        }
        // The kernel's cgroup files raise the same inotify event as any file written through write(2). Two writes to
        // the marker, one after the other: by the first one's report, any directory with events left over from the
        // writes above is back in line ahead of the second, so everything they caused is reported before it.
        List<CgroupPath> reported = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Files.writeString(
                    marker.in(testRoot).resolve("cpuset.mems"), subtree.mems().toString());
            for (CgroupPath p; !marker.equals(p = l.written.poll(10, TimeUnit.SECONDS)); ) {
                assertThat(p).as("a report within 10 s").isNotNull();
                reported.add(p);
            }
        }
        assertThat(reported).isNotEmpty().containsOnly(path);
    }

    @Test
    void aContainerMadeWhileItsPodIsBeingRegisteredIsFound() throws Exception {
        KubeletTree tree = new KubeletTree(testRoot, CgroupDriver.CGROUPFS, random);
        String uid = tree.podUid();
        CgroupPath pod = tree.naming.podPath(PodQos.BURSTABLE, uid);
        ContainerCgroup racer = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CONTAINERD);
        AtomicBoolean raced = new AtomicBoolean();
        RecordingListener l = new RecordingListener();
        watchers.add(CgroupTreeWatcher.start(tree.layout, l, List.of(), dir -> {
            if (dir.equals(tree.dir(pod)) && raced.compareAndSet(false, true)) {
                tree.mkdir(racer);
            }
        }));
        tree.mkdirs(pod);
        assertThat(l.next().container()).isEqualTo(racer);
        assertThat(raced).isTrue();
    }

    @Test
    void aBurstThatLosesEventsIsRecoveredByARescan() throws Exception {
        KubeletTree tree = new KubeletTree(testRoot, CgroupDriver.SYSTEMD, random);
        String uid = tree.podUid();
        ContainerCgroup first = tree.container(PodQos.GUARANTEED, uid, ContainerRuntime.CRIO);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingListener record = new RecordingListener();
        CgroupTreeWatcher w = watch(tree, new ContainerCgroupListener() {
            @Override
            public void containerAppeared(ContainerCgroup c, CgroupPath path, long seenNanos) {
                record.containerAppeared(c, path, seenNanos);
                if (c.equals(first)) {
                    holding.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            @Override
            public void containerRemoved(ContainerCgroup c, CgroupPath path, long seenNanos) {
                record.containerRemoved(c, path, seenNanos);
            }
        });
        Map<CgroupPath, ContainerCgroup> expected = new HashMap<>();
        expected.put(tree.mkdir(first), first);
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 600; i++) {
            ContainerCgroup c = tree.container(PodQos.GUARANTEED, uid, ContainerRuntime.CONTAINERD);
            expected.put(tree.mkdir(c), c);
        }
        release.countDown();
        record.awaitView(expected);
        assertThat(record.history).hasSize(601);
        assertThat(w.fullRescans()).isPositive();
    }

    /**
     * mkdir of a container cgroup → the listener's call, and rmdir → its call, one container at a time in one pod.
     * The figures go to the report; they depend on the load of this shared machine and are not asserted.
     */
    @Test
    void measuresTheLatencyFromMkdirToTheListener() throws Exception {
        KubeletTree tree = new KubeletTree(testRoot, CgroupDriver.CGROUPFS, random);
        BlockingQueue<long[]> calls = new LinkedBlockingQueue<>();
        watch(tree, new ContainerCgroupListener() {
            @Override
            public void containerAppeared(ContainerCgroup c, CgroupPath path, long seenNanos) {
                calls.add(new long[] {seenNanos, System.nanoTime()});
            }

            @Override
            public void containerRemoved(ContainerCgroup c, CgroupPath path, long seenNanos) {
                calls.add(new long[] {seenNanos, System.nanoTime()});
            }
        });
        String uid = tree.podUid();
        tree.mkdirs(tree.naming.podPath(PodQos.BURSTABLE, uid));
        int warmUp = 50;
        long[] toSeen = new long[LATENCY_SAMPLES];
        long[] toCall = new long[LATENCY_SAMPLES];
        long[] rmToCall = new long[LATENCY_SAMPLES];
        for (int i = -warmUp; i < LATENCY_SAMPLES; i++) {
            ContainerCgroup c = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CONTAINERD);
            Path dir = tree.dir(tree.path(c));
            long before = System.nanoTime();
            Files.createDirectory(dir);
            long[] appeared = calls.poll(10, TimeUnit.SECONDS);
            assertThat(appeared).as("appeared call for mkdir " + i).isNotNull();
            long beforeRm = System.nanoTime();
            Files.delete(dir);
            long[] removed = calls.poll(10, TimeUnit.SECONDS);
            assertThat(removed).as("removed call for rmdir " + i).isNotNull();
            if (i >= 0) {
                toSeen[i] = appeared[0] - before;
                toCall[i] = appeared[1] - before;
                rmToCall[i] = removed[1] - beforeRm;
            }
        }
        System.out.println("CgroupTreeWatcherIT latency over " + LATENCY_SAMPLES + " container cgroups on " + CPUSET
                + " (after " + warmUp + " warm-up):");
        System.out.println("  mkdir -> noticed        " + percentiles(toSeen));
        System.out.println("  mkdir -> listener call  " + percentiles(toCall));
        System.out.println("  rmdir -> listener call  " + percentiles(rmToCall));
    }

    private static String percentiles(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return String.format(
                "p50 %s  p90 %s  p99 %s  max %s",
                micros(s[s.length / 2]),
                micros(s[(int) (s.length * 0.9)]),
                micros(s[Math.min(s.length - 1, (int) Math.ceil(s.length * 0.99) - 1)]),
                micros(s[s.length - 1]));
    }

    private static String micros(long nanos) {
        return String.format("%.0f µs", nanos / 1000.0);
    }
}
