package io.podnuma.agent.cgroup.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.cgroup.watch.RecordingListener.Call;
import io.podnuma.agent.cgroup.watch.RecordingListener.Kind;
import io.podnuma.agent.engine.pod.PodQos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The watcher on ordinary temporary directories laid out as the kubelet and the runtimes would (the platform
 * WatchService is inotify here, as on the cgroup file system); {@code CgroupTreeWatcherIT} repeats the essentials
 * on the real cgroup v1 cpuset hierarchy.
 */
class CgroupTreeWatcherTest {

    @TempDir
    Path root;

    @TempDir
    Path staging;

    private final Random random = new Random();
    private final List<CgroupTreeWatcher> watchers = new ArrayList<>();

    @AfterEach
    void closeWatchers() {
        watchers.forEach(CgroupTreeWatcher::close);
    }

    private CgroupTreeWatcher watch(KubeletTree tree, ContainerCgroupListener l) throws IOException {
        CgroupTreeWatcher w = CgroupTreeWatcher.start(tree.layout, l);
        watchers.add(w);
        return w;
    }

    @Test
    void theFirstListingComesInOneCallBeforeStartReturnsAndLaterContainersOneByOne() throws Exception {
        KubeletTree tree = new KubeletTree(root, CgroupDriver.CGROUPFS, random);
        CgroupPath a = tree.mkdir(tree.container(PodQos.BURSTABLE, tree.podUid(), ContainerRuntime.CONTAINERD));
        CgroupPath b = tree.mkdir(tree.container(PodQos.GUARANTEED, tree.podUid(), ContainerRuntime.CONTAINERD));
        List<List<CgroupPath>> batches = new java.util.concurrent.CopyOnWriteArrayList<>();
        RecordingListener each = new RecordingListener();
        ContainerCgroupListener l = new ContainerCgroupListener() {
            @Override
            public void containersFound(List<FoundContainer> found, long seenNanos) {
                batches.add(found.stream().map(FoundContainer::path).toList());
            }

            @Override
            public void containerAppeared(ContainerCgroup container, CgroupPath path, long seenNanos) {
                each.containerAppeared(container, path, seenNanos);
            }

            @Override
            public void containerRemoved(ContainerCgroup container, CgroupPath path, long seenNanos) {
                each.containerRemoved(container, path, seenNanos);
            }
        };
        watch(tree, l);
        assertThat(batches).hasSize(1);
        assertThat(batches.get(0)).containsExactlyInAnyOrder(a, b);

        CgroupPath later = tree.mkdir(tree.container(PodQos.BEST_EFFORT, tree.podUid(), ContainerRuntime.CONTAINERD));
        assertThat(each.next().path()).isEqualTo(later);
        assertThat(batches).as("only the first listing is one call").hasSize(1);
    }

    @Test
    void writesToAContainersCpusetFilesAreReportedAndOthersAreNot() throws Exception {
        KubeletTree tree = new KubeletTree(root, CgroupDriver.SYSTEMD, random);
        RecordingListener l = new RecordingListener();
        ContainerCgroup c = tree.container(PodQos.BURSTABLE, tree.podUid(), ContainerRuntime.CONTAINERD);
        CgroupPath before = tree.mkdir(c); // there before the watch starts
        watch(tree, l);
        assertThat(l.next().path()).isEqualTo(before);
        ContainerCgroup d = tree.container(PodQos.GUARANTEED, tree.podUid(), ContainerRuntime.CONTAINERD);
        CgroupPath after = tree.mkdir(d);
        assertThat(l.next().path()).isEqualTo(after);

        Files.writeString(before.in(root).resolve("cpuset.cpus"), "1-2");
        assertThat(l.written.poll(10, TimeUnit.SECONDS)).isEqualTo(before);
        Files.writeString(after.in(root).resolve("cpuset.mems"), "0");
        assertThat(l.written.poll(10, TimeUnit.SECONDS)).isEqualTo(after);
        // A process moved in, a control file of another kind: nothing for the cpuset.
        Files.writeString(after.in(root).resolve("cgroup.procs"), "1");
        Files.writeString(after.in(root).resolve("tasks"), "1");
        // Then two cpuset writes in the other container, one after the other, are the next two reports: by the first,
        // any directory with events left over from the writes above is back in line ahead of the second.
        for (String cpus : List.of("2-3", "4-5")) {
            Files.writeString(before.in(root).resolve("cpuset.cpus"), cpus);
            assertThat(l.written.poll(10, TimeUnit.SECONDS))
                    .as("the next report is the write of %s, nothing before it", cpus)
                    .isEqualTo(before);
        }
    }

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void noticesKubepodsCreatedAfterStartAndEveryContainerBelowIt(CgroupDriver driver) throws Exception {
        KubeletTree tree = new KubeletTree(root, driver, random);
        RecordingListener l = new RecordingListener();
        watch(tree, l);
        String uid = tree.podUid();
        Map<CgroupPath, ContainerCgroup> expected = new LinkedHashMap<>();
        for (PodQos qos : PodQos.values()) {
            for (ContainerRuntime runtime : ContainerRuntime.values()) {
                ContainerCgroup c = tree.container(qos, uid, runtime);
                long before = System.nanoTime();
                CgroupPath p = tree.mkdir(c);
                Call call = l.next();
                assertThat(call.kind()).isEqualTo(Kind.APPEARED);
                assertThat(call.container()).isEqualTo(c);
                assertThat(call.path()).isEqualTo(p);
                assertThat(call.seenNanos()).isGreaterThanOrEqualTo(before);
                assertThat(call.thread()).isEqualTo("cgroup-tree-watcher");
                expected.put(p, c);
            }
        }
        for (Map.Entry<CgroupPath, ContainerCgroup> e : expected.entrySet()) {
            tree.rmdir(e.getKey());
            Call call = l.next();
            assertThat(call.kind()).isEqualTo(Kind.REMOVED);
            assertThat(call.path()).isEqualTo(e.getKey());
            assertThat(call.container()).isEqualTo(e.getValue());
        }
        l.assertNoCallBeforeMarkers(tree);
    }

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void reportsWhatExistsAtStartOrOnlyTheDifferenceToWhatTheCallerKnows(CgroupDriver driver) throws Exception {
        KubeletTree tree = new KubeletTree(root, driver, random);
        String uid = tree.podUid();
        ContainerCgroup a = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CONTAINERD);
        ContainerCgroup b = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CONTAINERD);
        ContainerCgroup gone = tree.container(PodQos.GUARANTEED, tree.podUid(), ContainerRuntime.CRIO);
        CgroupPath pa = tree.mkdir(a);
        CgroupPath pb = tree.mkdir(b);

        RecordingListener fresh = new RecordingListener();
        watch(tree, fresh).close();
        assertThat(fresh.view()).isEqualTo(Map.of(pa, a, pb, b));

        List<FoundContainer> scanned = new ArrayList<>(CgroupTreeScanner.scan(tree.layout));
        assertThat(scanned).containsExactlyInAnyOrder(new FoundContainer(a, pa), new FoundContainer(b, pb));
        scanned.add(new FoundContainer(gone, tree.path(gone))); // known to the caller, removed since
        ContainerCgroup created = tree.container(PodQos.BEST_EFFORT, uid, ContainerRuntime.CRIO);
        CgroupPath pc = tree.mkdir(created); // created between the scan and the watch

        RecordingListener l = new RecordingListener();
        CgroupTreeWatcher w = CgroupTreeWatcher.start(tree.layout, l, scanned);
        watchers.add(w);
        assertThat(l.history)
                .extracting(Call::kind, Call::path)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(Kind.REMOVED, tree.path(gone)),
                        org.assertj.core.groups.Tuple.tuple(Kind.APPEARED, pc));
        assertThat(w.fullRescans()).isZero();
    }

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void aPodDirectoryThatArrivesWithContainersInsideReportsThemAll(CgroupDriver driver) throws Exception {
        KubeletTree tree = new KubeletTree(root, driver, random);
        RecordingListener l = new RecordingListener();
        String uid = tree.podUid();
        ContainerCgroup first = tree.container(PodQos.BURSTABLE, tree.podUid(), ContainerRuntime.CONTAINERD);
        tree.mkdir(first); // kubepods and the QoS directory exist
        watch(tree, l);
        assertThat(l.next().container()).isEqualTo(first);

        // Build a whole pod elsewhere, then rename it into place: one event for the pod, none for what is inside.
        KubeletTree elsewhere = new KubeletTree(staging, driver, random);
        Map<CgroupPath, ContainerCgroup> inside = new HashMap<>();
        for (ContainerRuntime r : List.of(ContainerRuntime.CONTAINERD, ContainerRuntime.CRIO, ContainerRuntime.CRIO)) {
            ContainerCgroup c = tree.container(PodQos.BURSTABLE, uid, r);
            inside.put(elsewhere.mkdir(c), c);
        }
        CgroupPath podPath = tree.naming.podPath(PodQos.BURSTABLE, uid);
        Files.move(podPath.in(staging), podPath.in(root));

        Map<CgroupPath, ContainerCgroup> expected = new HashMap<>(inside);
        expected.put(tree.path(first), first);
        l.awaitView(expected);
        assertThat(l.history).hasSize(4);

        // Moved away again: every container in it is gone.
        Files.move(podPath.in(root), podPath.in(staging));
        l.awaitView(Map.of(tree.path(first), first));
        assertThat(l.history).hasSize(7);
        l.assertAlternatingPerPath();
    }

    @Test
    void aContainerCreatedBetweenTheEventAndTheRegistrationIsFoundByTheListing() throws Exception {
        KubeletTree tree = new KubeletTree(root, CgroupDriver.SYSTEMD, random);
        String uid = tree.podUid();
        CgroupPath podPath = tree.naming.podPath(PodQos.GUARANTEED, uid);
        ContainerCgroup racer = tree.container(PodQos.GUARANTEED, uid, ContainerRuntime.CONTAINERD);
        AtomicBoolean raced = new AtomicBoolean();
        RecordingListener l = new RecordingListener();
        CgroupTreeWatcher w = CgroupTreeWatcher.start(tree.layout, l, List.of(), dir -> {
            if (dir.equals(podPath.in(root)) && raced.compareAndSet(false, true)) {
                tree.mkdir(racer); // no watch on the pod directory yet: no event will say so
            }
        });
        watchers.add(w);

        tree.mkdirs(podPath);

        Call call = l.next();
        assertThat(call.kind()).isEqualTo(Kind.APPEARED);
        assertThat(call.container()).isEqualTo(racer);
        assertThat(raced).isTrue();
        // And later containers of that pod come through its watch.
        ContainerCgroup later = tree.container(PodQos.GUARANTEED, uid, ContainerRuntime.CRIO);
        tree.mkdir(later);
        assertThat(l.next().container()).isEqualTo(later);
        l.assertNoCallBeforeMarkers(tree);
        assertThat(w.fullRescans()).isZero();
    }

    @Test
    void aPodDirectoryRemovedWhileBeingRegisteredIsSkippedAndTheWatchGoesOn() throws Exception {
        KubeletTree tree = new KubeletTree(root, CgroupDriver.CGROUPFS, random);
        String doomedUid = tree.podUid();
        CgroupPath doomed = tree.naming.podPath(PodQos.BEST_EFFORT, doomedUid);
        RecordingListener l = new RecordingListener();
        CountDownLatch deleted = new CountDownLatch(1);
        CgroupTreeWatcher w = CgroupTreeWatcher.start(tree.layout, l, List.of(), dir -> {
            if (dir.equals(doomed.in(root))) {
                deleteTree(dir);
                deleted.countDown();
            }
        });
        watchers.add(w);

        // Made elsewhere and renamed into place, so that this thread is not writing in it when the hook deletes it.
        tree.mkdirs(doomed.parent());
        new KubeletTree(staging, CgroupDriver.CGROUPFS, random)
                .mkdir(tree.container(PodQos.BEST_EFFORT, doomedUid, ContainerRuntime.CONTAINERD));
        Files.move(doomed.in(staging), doomed.in(root));
        assertThat(deleted.await(10, TimeUnit.SECONDS)).isTrue();
        ContainerCgroup survivor = tree.container(PodQos.BEST_EFFORT, tree.podUid(), ContainerRuntime.CONTAINERD);
        tree.mkdir(survivor);

        assertThat(l.next().container()).isEqualTo(survivor);
        List<CgroupPath> markers = l.assertNoCallBeforeMarkers(tree);
        assertThat(l.history)
                .filteredOn(call -> !markers.contains(call.path()))
                .as("nothing about the pod that went before it was listed")
                .hasSize(1);
        assertThat(w.isRunning()).isTrue();
        // root, kubepods, besteffort, the survivor's pod, the survivor itself (for writes to its cpuset), and the
        // markers' pod, left empty
        assertThat(w.watchedDirectories()).isEqualTo(6);
    }

    @Test
    void lostEventsMakeAFullRescanThatReportsEveryContainerOnce() throws Exception {
        KubeletTree tree = new KubeletTree(root, CgroupDriver.CGROUPFS, random);
        String uid = tree.podUid();
        AtomicReference<ContainerCgroup> holdOn = new AtomicReference<>();
        AtomicReference<CountDownLatch> holding = new AtomicReference<>();
        AtomicReference<CountDownLatch> release = new AtomicReference<>();
        RecordingListener record = new RecordingListener();
        ContainerCgroupListener l = new ContainerCgroupListener() {
            @Override
            public void containerAppeared(ContainerCgroup c, CgroupPath path, long seenNanos) {
                record.containerAppeared(c, path, seenNanos);
                if (c.equals(holdOn.get())) {
                    holding.get().countDown();
                    await(release.get()); // the watcher thread is stuck: events pile up on the pod's key
                }
            }

            @Override
            public void containerRemoved(ContainerCgroup c, CgroupPath path, long seenNanos) {
                record.containerRemoved(c, path, seenNanos);
            }
        };
        CgroupTreeWatcher w = watch(tree, l);
        Map<CgroupPath, ContainerCgroup> expected = new HashMap<>();
        // The JDK's poller thread moves the kernel's events onto the key; on a loaded machine it may still be behind
        // when the watcher is released, and a key it fills only after the release never overflows. So the burst is
        // repeated (a bounded number of times) until one overflowed; every round must report each container once.
        for (int round = 1; round <= 5 && w.fullRescans() == 0; round++) {
            ContainerCgroup first = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CONTAINERD);
            holdOn.set(first);
            holding.set(new CountDownLatch(1));
            release.set(new CountDownLatch(1));
            expected.put(tree.mkdir(first), first);
            assertThat(holding.get().await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 1500; i++) { // far more than the 512 events a key holds
                ContainerCgroup c = tree.container(PodQos.BURSTABLE, uid, KubeletTree.anyRuntime(random));
                expected.put(tree.mkdir(c), c);
            }
            TimeUnit.MILLISECONDS.sleep(1000L * round);
            release.get().countDown();

            record.awaitView(expected);
            assertThat(record.history).as("round %d", round).hasSize(expected.size());
        }
        assertThat(w.fullRescans()).isPositive();
    }

    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void namesThatAreNoContainerNeitherCrashNorReport(CgroupDriver driver) throws Exception {
        KubeletTree tree = new KubeletTree(root, driver, random);
        RecordingListener l = new RecordingListener();
        CgroupTreeWatcher w = watch(tree, l);
        String uid = tree.podUid();
        ContainerCgroup c = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CRIO);
        CgroupPath container = tree.mkdir(c);
        assertThat(l.next().container()).isEqualTo(c);
        CgroupPath pod = container.parent();
        CgroupPath kubepods = CgroupPath.root().child(driver.kubepodsName());
        List<CgroupPath> junk = List.of(
                CgroupPath.root().child("system.slice"),
                kubepods.child("not-a-qos-or-pod"),
                pod.parent().child("not-a-pod"),
                pod.child("crio-conmon-" + tree.hex64() + (driver == CgroupDriver.SYSTEMD ? ".scope" : "")),
                pod.child("short-id"),
                container.child("nested-cgroup"));
        for (CgroupPath p : junk) {
            tree.mkdirs(p);
        }
        Files.writeString(tree.dir(pod).resolve("cpuset.cpus"), "0-1"); // control files are no directories
        Files.writeString(tree.dir(kubepods).resolve("tasks"), "");
        ContainerCgroup after = tree.container(PodQos.BURSTABLE, uid, ContainerRuntime.CONTAINERD);
        tree.mkdir(after);

        assertThat(l.next().container()).isEqualTo(after);
        l.assertNoCallBeforeMarkers(tree);
        assertThat(l.unrecognised)
                .hasSize(3)
                .anySatisfy(u -> assertThat(u).contains("not-a-qos-or-pod").contains("is not"))
                .anySatisfy(u -> assertThat(u).contains("\"short-id\""))
                .anySatisfy(u -> assertThat(u).contains("not-a-pod"));
        assertThat(w.isRunning()).isTrue();
    }

    @Test
    void aThrowingListenerDoesNotStopTheWatch() throws Exception {
        KubeletTree tree = new KubeletTree(root, CgroupDriver.CGROUPFS, random);
        RecordingListener record = new RecordingListener();
        ContainerCgroupListener l = new ContainerCgroupListener() {
            @Override
            public void containerAppeared(ContainerCgroup c, CgroupPath path, long seenNanos) {
                record.containerAppeared(c, path, seenNanos);
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void containerRemoved(ContainerCgroup c, CgroupPath path, long seenNanos) {
                record.containerRemoved(c, path, seenNanos);
            }
        };
        watch(tree, l);
        ContainerCgroup a = tree.container(PodQos.GUARANTEED, tree.podUid(), ContainerRuntime.CONTAINERD);
        ContainerCgroup b = tree.container(PodQos.GUARANTEED, tree.podUid(), ContainerRuntime.CONTAINERD);
        tree.mkdir(a);
        assertThat(record.next().container()).isEqualTo(a);
        tree.mkdir(b);
        assertThat(record.next().container()).isEqualTo(b);
    }

    @Test
    void closeStopsTheThreadAndNoCallFollows() throws Exception {
        KubeletTree tree = new KubeletTree(root, CgroupDriver.CGROUPFS, random);
        RecordingListener l = new RecordingListener();
        CgroupTreeWatcher w = watch(tree, l);
        tree.mkdirs(CgroupPath.parse("kubepods/burstable"));
        w.close();
        assertThat(w.isRunning()).isFalse();
        tree.mkdir(tree.container(PodQos.BURSTABLE, tree.podUid(), ContainerRuntime.CONTAINERD));
        // Every call comes from the watcher's thread, which has ended above: none can come later than now.
        assertThat(l.history).isEmpty();
        w.close(); // twice is fine
    }

    @Test
    void aMissingRootIsAClearError() {
        KubeletTree tree = new KubeletTree(root.resolve("absent"), CgroupDriver.CGROUPFS, random);
        assertThatThrownBy(() -> CgroupTreeWatcher.start(tree.layout, new RecordingListener()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot watch the cgroup hierarchy " + root.resolve("absent"))
                .hasMessageContaining("does not exist");
    }

    /**
     * Random mkdir and rmdir of containers, pods, QoS levels and kubepods itself (both drivers, both runtimes, with
     * bursts that lose events and rescans on request): afterwards the listener's view equals what exists, and per
     * path the calls alternate appeared / removed.
     */
    @ParameterizedTest
    @EnumSource(CgroupDriver.class)
    void randomChurnEndsWithTheListenersViewEqualToTheTree(CgroupDriver driver) throws Exception {
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println(
                getClass().getSimpleName() + " churn seed=" + seed + " (replay with -Dpodnuma.seed=" + seed + ")");
        Random rnd = new Random(seed);
        KubeletTree tree = new KubeletTree(root, driver, rnd);
        RecordingListener l = new RecordingListener();
        CgroupTreeWatcher w = watch(tree, l);
        List<String> uids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            uids.add(tree.podUid());
        }
        for (int round = 0; round < 10; round++) {
            for (int step = 0; step < 60; step++) {
                int op = rnd.nextInt(10);
                if (op < 6) {
                    tree.mkdir(tree.container(
                            KubeletTree.anyQos(rnd), uids.get(rnd.nextInt(uids.size())), KubeletTree.anyRuntime(rnd)));
                } else {
                    removeRandomSubtree(tree, rnd, op == 9);
                }
            }
            if (rnd.nextInt(3) == 0) {
                w.requestRescan();
            }
            l.awaitView(onDisk(tree));
        }
        l.assertAlternatingPerPath();
        System.out.println("churn " + driver + ": " + l.history.size() + " calls, " + w.fullRescans() + " rescans");
    }

    private static void removeRandomSubtree(KubeletTree tree, Random rnd, boolean high) throws IOException {
        List<Path> dirs;
        try (Stream<Path> s = Files.walk(tree.root)) {
            dirs = s.filter(Files::isDirectory)
                    .filter(p -> !p.equals(tree.root))
                    .filter(p -> high || tree.root.relativize(p).getNameCount() >= 3)
                    .sorted()
                    .toList();
        }
        if (!dirs.isEmpty()) {
            deleteTree(dirs.get(rnd.nextInt(dirs.size())));
        }
    }

    private static Map<CgroupPath, ContainerCgroup> onDisk(KubeletTree tree) throws IOException {
        Map<CgroupPath, ContainerCgroup> m = new HashMap<>();
        for (FoundContainer f : CgroupTreeScanner.scan(tree.layout)) {
            m.put(f.path(), f.container());
        }
        return m;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = s.sorted(Comparator.comparingInt(Path::getNameCount).reversed())
                    .toList();
        }
        for (Path p : all) {
            Files.deleteIfExists(p);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
