package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code podnuma_shared_pool_propagation_seconds} on the in-memory agent: a pod that changes the node shared pool
 * (a 4-CPU bubble admitted, then deleted) is counted once every container on the pool holds the new pool; a failed
 * write keeps it open until the retry has written; a change replaced by a newer one before it arrived is not counted.
 */
class NodeAgentPoolPropagationTest {

    private static final String HISTOGRAM = "podnuma_shared_pool_propagation_seconds";

    @TempDir
    Path stateDir;

    private final CpuTopology topo = readTopology();
    private final CgroupNaming naming = new CgroupNaming(CgroupDriver.SYSTEMD);
    private final FakePods pods = new FakePods();
    private final FakeCgroups cgroups = new FakeCgroups(new Random(1));
    private final List<FoundContainer> onHost = Collections.synchronizedList(new ArrayList<>());
    private final AgentMetrics metrics = new AgentMetrics(topo);
    private final List<CgroupPath> shared = new ArrayList<>();
    private NodeAgent agent;

    private static CpuTopology readTopology() {
        try {
            return new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeEach
    void threeBurstablePodsRunOnTheSharedPool() throws Exception {
        agent = new InMemoryAgent(
                        "unit",
                        topo,
                        InMemoryAgent.podScopeConfig("unit", SampleConfigs.reservedCpus("0,64")),
                        naming,
                        cgroups,
                        () -> List.copyOf(onHost),
                        stateDir,
                        pods)
                .withMetrics(metrics)
                .build();
        agent.start();
        assertThat(agent.awaitReady(Duration.ofSeconds(10))).isTrue();
        for (int i = 0; i < 3; i++) {
            Pod web = RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(2, "web" + i, "web" + i, "1"));
            pods.put(web);
            shared.add(appear(web));
        }
        agent.drain();
        assertThat(holding()).containsOnly(agent.state().sharedPool());
        assertThat(count())
                .as("Burstable pods do not change the pool; the pins of new containers are not pool changes")
                .isZero();
    }

    @AfterEach
    void close() {
        agent.close();
    }

    @Test
    void aBubbleAdmittedAndDeletedIsCountedOnceEachWhenEveryPoolContainerHoldsTheNewPool() {
        CpuSet before = agent.state().sharedPool();
        Pod worker = RuntimeFixtures.podOfKind(0, "worker", "worker", "4");
        pods.put(worker); // bound, no containers yet: only the pool changes on the host
        agent.drain();
        CpuSet shrunk = agent.state().sharedPool();
        assertThat(shrunk.size()).isEqualTo(before.size() - 4);
        assertThat(holding()).containsOnly(shrunk);
        assertThat(count()).isEqualTo(1);

        pods.remove(worker);
        agent.drain();
        assertThat(holding()).containsOnly(before);
        assertThat(count()).isEqualTo(2);
        assertThat(sum()).as("two passes of in-memory writes").isBetween(0.0, 5.0);
        assertThat(metric(HISTOGRAM + "_bucket{le=\"+Inf\"}")).isEqualTo(2);

        Pod another = RuntimeFixtures.withStatus(RuntimeFixtures.podOfKind(2, "web9", "web9", "1"));
        pods.put(another);
        agent.drain();
        assertThat(count())
                .as("a decision that leaves the pool as it was is no change")
                .isEqualTo(2);
    }

    @Test
    void aFailedWriteKeepsTheChangeOpenUntilTheRetryHasWritten() throws Exception {
        CgroupPath stuck = shared.get(1);
        cgroups.failing.add(stuck);
        long decided = System.nanoTime();
        pods.put(RuntimeFixtures.podOfKind(0, "worker", "worker", "4"));
        agent.drain();
        long drained = System.nanoTime(); // the decision was taken before
        CpuSet shrunk = agent.state().sharedPool();
        assertThat(cgroups.actual.get(stuck).cpus()).isNotEqualTo(shrunk);
        assertThat(count()).as("one container on the pool does not hold it yet").isZero();

        // A retry has tried the stuck container again, and the loop has got past the end of that pass (it runs one
        // thing at a time): a retry that counted the change anyway would show now.
        int failed = cgroups.failedWrites();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> cgroups.failedWrites() > failed);
        agent.drain();
        assertThat(count()).as("the retries keep failing").isZero();
        long cleared = System.nanoTime();
        cgroups.failing.clear();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> count() == 1);
        double elapsed = (System.nanoTime() - decided) / 1e9;
        assertThat(holding()).containsOnly(shrunk);
        assertThat(sum())
                .as("timed from the decision to the retry that wrote the last container")
                .isGreaterThanOrEqualTo((cleared - drained) / 1e9)
                .isLessThanOrEqualTo(elapsed);
    }

    @Test
    void aChangeReplacedBeforeItArrivedIsNotCountedOnlyTheNewerOneFromItsOwnDecision() throws Exception {
        CpuSet before = agent.state().sharedPool();
        CgroupPath stuck = shared.get(1);
        cgroups.failing.add(stuck);
        Pod worker = RuntimeFixtures.podOfKind(0, "worker", "worker", "4");
        pods.put(worker);
        agent.drain();
        assertThat(count()).isZero();

        TimeUnit.MILLISECONDS.sleep(500);
        long second = System.nanoTime();
        pods.remove(worker); // the pool grows back before the shrink reached the stuck container
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> count() >= 1);
        double sinceSecond = (System.nanoTime() - second) / 1e9;
        agent.drain();
        assertThat(holding()).containsOnly(before);
        assertThat(count())
                .as("the shrink was replaced: only the grow is counted")
                .isEqualTo(1);
        assertThat(sum())
                .as("timed from the second decision, not the first (500 ms earlier)")
                .isLessThanOrEqualTo(sinceSecond);
    }

    private List<CpuSet> holding() {
        return shared.stream().map(p -> cgroups.actual.get(p).cpus()).distinct().toList();
    }

    private CgroupPath appear(Pod p) {
        var s = RuntimeFixtures.allStatuses(p).get(0);
        ContainerCgroup c = new ContainerCgroup(
                RuntimeFixtures.qos(p), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID()));
        CgroupPath path = naming.containerPath(c);
        cgroups.actual.put(path, new Pin(topo.onlineCpus(), RuntimeFixtures.allMems(topo)));
        onHost.add(new FoundContainer(c, path));
        agent.containerAppeared(c, path, System.nanoTime());
        return path;
    }

    private double count() {
        return metric(HISTOGRAM + "_count");
    }

    private double sum() {
        return metric(HISTOGRAM + "_sum");
    }

    private double metric(String sample) {
        return PrometheusText.sampleValue(metrics.scrape(), sample);
    }
}
