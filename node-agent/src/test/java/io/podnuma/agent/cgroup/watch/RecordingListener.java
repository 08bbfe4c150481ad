package io.podnuma.agent.cgroup.watch;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerRuntime;
import io.podnuma.agent.engine.pod.PodQos;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Records every listener call, in order, with the calling thread. */
final class RecordingListener implements ContainerCgroupListener {

    enum Kind {
        APPEARED,
        REMOVED
    }

    record Call(Kind kind, ContainerCgroup container, CgroupPath path, long seenNanos, String thread) {}

    final List<Call> history = new CopyOnWriteArrayList<>();
    final List<String> unrecognised = new CopyOnWriteArrayList<>();
    /** The containers whose cpuset files were reported written, in order (apart from the other calls). */
    final BlockingQueue<CgroupPath> written = new LinkedBlockingQueue<>();

    private final BlockingQueue<Call> queue = new LinkedBlockingQueue<>();

    @Override
    public void containerAppeared(ContainerCgroup container, CgroupPath path, long seenNanos) {
        record(new Call(
                Kind.APPEARED,
                container,
                path,
                seenNanos,
                Thread.currentThread().getName()));
    }

    @Override
    public void containerRemoved(ContainerCgroup container, CgroupPath path, long seenNanos) {
        record(new Call(
                Kind.REMOVED, container, path, seenNanos, Thread.currentThread().getName()));
    }

    @Override
    public void unrecognised(CgroupPath path, String reason) {
        unrecognised.add(path + " | " + reason);
    }

    @Override
    public void cpusetWritten(ContainerCgroup container, CgroupPath path) {
        written.add(path);
    }

    private void record(Call c) {
        history.add(c);
        queue.add(c);
    }

    /** The next call, waiting up to 10 s. */
    Call next() throws InterruptedException {
        Call c = queue.poll(10, TimeUnit.SECONDS);
        assertThat(c)
                .as("a listener call within 10 s (history " + history + ")")
                .isNotNull();
        return c;
    }

    /**
     * Asserts that no call is on its way since the last one taken, with evidence: two containers made one after the
     * other in {@code tree} are the next two calls. The watcher handles one directory's events at a time, and a
     * directory that got events while it was handled goes back in line only then, possibly behind the first marker; by
     * the first marker's call it is in line, so whatever an earlier event causes comes before the second marker's call.
     * The markers are removed again (their removals taken too), so the view is as before.
     *
     * @return the markers' paths, which the history holds
     */
    List<CgroupPath> assertNoCallBeforeMarkers(KubeletTree tree) throws InterruptedException, IOException {
        String uid = tree.podUid();
        List<CgroupPath> markers = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            CgroupPath marker = tree.mkdir(tree.container(PodQos.BEST_EFFORT, uid, ContainerRuntime.CONTAINERD));
            Call c = next();
            assertThat(List.of(c.kind(), c.path()))
                    .as("the next call is marker %d appearing, nothing before it (history %s)", i, history)
                    .containsExactly(Kind.APPEARED, marker);
            markers.add(marker);
        }
        for (CgroupPath marker : markers.reversed()) {
            tree.rmdir(marker);
            Call c = next();
            assertThat(List.of(c.kind(), c.path()))
                    .as("the marker's removal (history %s)", history)
                    .containsExactly(Kind.REMOVED, marker);
        }
        return markers;
    }

    /** The containers the calls so far say exist. */
    Map<CgroupPath, ContainerCgroup> view() {
        Map<CgroupPath, ContainerCgroup> v = new LinkedHashMap<>();
        for (Call c : history) {
            if (c.kind() == Kind.APPEARED) {
                v.put(c.path(), c.container());
            } else {
                v.remove(c.path());
            }
        }
        return v;
    }

    /** Per path the calls alternate appeared, removed, appeared, ..., starting with appeared. */
    void assertAlternatingPerPath() {
        Map<CgroupPath, List<Kind>> perPath = new HashMap<>();
        for (Call c : history) {
            perPath.computeIfAbsent(c.path(), p -> new ArrayList<>()).add(c.kind());
        }
        perPath.forEach((path, kinds) -> {
            for (int i = 0; i < kinds.size(); i++) {
                assertThat(kinds.get(i))
                        .as(path + " call " + i + " of " + kinds)
                        .isEqualTo(i % 2 == 0 ? Kind.APPEARED : Kind.REMOVED);
            }
        });
    }

    /** Waits until {@link #view()} equals {@code expected}, up to 10 s. */
    void awaitView(Map<CgroupPath, ContainerCgroup> expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!view().equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(view()).isEqualTo(expected);
    }
}
