package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.metrics.AgentMetrics;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent that starts while the API server is away (its pod list never arrives) works from its checkpoint: the
 * containers of the pods it holds get their assignments, every other container the shared pool (it must not keep
 * the exclusive CPUs a new cgroup inherits from its parent), drift is repaired, and nothing is released.
 */
class NodeAgentBeforeSyncTest {

    @TempDir
    Path stateDir;

    private final List<NodeAgent> agents = new ArrayList<>();
    private final FakeHost host = new FakeHost();
    private final FakeCgroups cgroups = host.cgroups;

    @AfterEach
    void close() {
        agents.forEach(NodeAgent::close);
    }

    @Test
    void pinsFromTheCheckpointAndRepairsDriftBeforeThePodListArrives() throws Exception {
        CpuTopology topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        Pod trader = RuntimeFixtures.withStatus(guaranteed("trader", "4"));
        Pod web = RuntimeFixtures.withStatus(burstable("web"));
        Pod stranger = RuntimeFixtures.withStatus(guaranteed("stranger", "2"));
        Pod late = RuntimeFixtures.withStatus(burstable("late"));

        // A first agent admits trader and web and checkpoints them, then stops (a rolling update or a crash).
        FakePods api = new FakePods();
        api.put(trader);
        api.put(web);
        NodeAgent first = agent(topo, api);
        first.start();
        assertThat(first.awaitReady(Duration.ofSeconds(10))).isTrue();
        NodeState held = first.state();
        CpuSet traderCpus = held.pods().get(uid(trader)).exclusiveCpus();
        assertThat(traderCpus.size()).isEqualTo(4);
        first.close();

        // The next agent starts while the API server is away; containers start meanwhile.
        NodeAgent agent = agent(topo, new AwayPods());
        agent.start();
        Pin all = new Pin(topo.onlineCpus(), RuntimeFixtures.allMems(topo));
        CgroupPath traderPath = host.create(trader, all);
        CgroupPath webPath = host.create(web, all);
        CgroupPath strangerPath = host.create(stranger, all);
        for (CgroupPath p : List.of(traderPath, webPath, strangerPath)) {
            agent.containerAppeared(host.cgroup(p), p, System.nanoTime());
        }
        agent.drain();
        assertThat(agent.isReady()).isFalse();
        CpuSet shared = held.sharedPool();
        assertThat(cgroups.actual.get(traderPath).cpus())
                .as("trader, held by the checkpoint")
                .isEqualTo(traderCpus);
        assertThat(cgroups.actual.get(webPath).cpus())
                .as("web, on the shared pool")
                .isEqualTo(shared);
        assertThat(cgroups.actual.get(strangerPath).cpus())
                .as("a pod the checkpoint does not know runs on the shared pool, not on trader's CPUs")
                .isEqualTo(shared);

        // Someone rewrites trader's cpuset; a container appears that no event reported: the tick handles both.
        cgroups.actual.put(traderPath, all);
        CgroupPath latePath = host.create(late, all);
        agent.reconcileNow();
        assertThat(cgroups.actual.get(traderPath).cpus()).as("trader, repaired").isEqualTo(traderCpus);
        assertThat(cgroups.actual.get(latePath).cpus())
                .as("late, found by the rescan")
                .isEqualTo(shared);
        assertThat(agent.isReady()).isFalse();
        assertThat(agent.state().pods().keySet())
                .as("nothing is released before the pod list arrives")
                .containsExactlyInAnyOrder(uid(trader), uid(web));
    }

    @Test
    void theContainersOnTheHostAtStartArePinnedInOnePassBeforeThePodListArrives() throws Exception {
        CpuTopology topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        Pod trader = RuntimeFixtures.withStatus(guaranteed("trader", "4"));
        Pod web = RuntimeFixtures.withStatus(burstable("web"));
        FakePods api = new FakePods();
        api.put(trader);
        NodeAgent first = agent(topo, api);
        first.start();
        assertThat(first.awaitReady(Duration.ofSeconds(10))).isTrue();
        NodeState held = first.state();
        first.close();

        // The containers are there before the next agent starts, as on a node in service; it is told of them at once.
        Pin all = new Pin(topo.onlineCpus(), RuntimeFixtures.allMems(topo));
        CgroupPath traderPath = host.create(trader, all);
        CgroupPath webPath = host.create(web, all);
        // Its own scans find nothing here: what it pins, it was told at the start.
        AgentMetrics metrics = new AgentMetrics(topo);
        NodeAgent agent = new InMemoryAgent(
                        "before-sync",
                        topo,
                        InMemoryAgent.podScopeConfig("before-sync", SampleConfigs.reservedCpuCount(2)),
                        host.naming,
                        cgroups,
                        List::of,
                        stateDir,
                        new AwayPods())
                .withSyncLog(Duration.ofMillis(100))
                .withMetrics(metrics)
                .build();
        agents.add(agent);
        agent.start();
        agent.onHost(
                List.of(
                        new FoundContainer(host.cgroup(traderPath), traderPath),
                        new FoundContainer(host.cgroup(webPath), webPath)),
                System.nanoTime());
        agent.drain();
        assertThat(cgroups.actual.get(traderPath).cpus())
                .as("trader, held by the checkpoint")
                .isEqualTo(held.pods().get(uid(trader)).exclusiveCpus());
        assertThat(cgroups.actual.get(webPath).cpus())
                .as("web, unknown to the checkpoint, on the shared pool")
                .isEqualTo(held.sharedPool());
        assertThat(PrometheusText.sampleValue(metrics.scrape(), "podnuma_pin_latency_seconds_count"))
                .as("both pinned, both counted as pins")
                .isEqualTo(2);
        assertThat(agent.isReady()).isFalse();
    }

    private NodeAgent agent(CpuTopology topo, PodSource pods) {
        NodeAgent agent = host.agent("before-sync", topo, pods, cgroups, stateDir, Duration.ofMillis(100));
        agents.add(agent);
        return agent;
    }

    private static String uid(Pod p) {
        return p.getMetadata().getUid();
    }

    private static Pod guaranteed(String name, String cpus) {
        return new PodBuilder(burstable(name))
                .editSpec()
                .editFirstContainer()
                .withResources(SamplePods.guaranteed(cpus, "1Gi"))
                .endContainer()
                .endSpec()
                .build();
    }

    private static Pod burstable(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("before-sync")
                .withUid(java.util.UUID.nameUUIDFromBytes(name.getBytes()).toString())
                .withCreationTimestamp("2026-11-29T00:00:00Z")
                .endMetadata()
                .withNewSpec()
                .withNodeName("before-sync")
                .addNewContainer()
                .withName("app")
                .withNewResources()
                .addToRequests("cpu", new Quantity("250m"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }
}
