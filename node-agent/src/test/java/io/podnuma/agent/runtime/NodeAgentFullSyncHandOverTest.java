package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.pods.PodSource;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.runtime.core.PinWriter;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The full sync after a restart can release a pod deleted while the agent was down and give its CPUs to a pod created
 * meanwhile, in one pass. The old owner's container may still exist (the runtime removes it a little later): the new
 * owner must not gain those CPUs before the old owner's container has given them up, whatever the order of the
 * cgroup paths.
 */
class NodeAgentFullSyncHandOverTest {

    @TempDir
    Path stateDir;

    private final List<NodeAgent> agents = new ArrayList<>();
    private final FakeHost host = new FakeHost();
    private final FakeCgroups cgroups = host.cgroups;

    @AfterEach
    void close() {
        agents.forEach(NodeAgent::close);
    }

    /** Pods whose list arrives when the test says so. */
    static final class LatePods implements PodSource {
        final CountDownLatch listed = new CountDownLatch(1);
        final List<Pod> pods;

        LatePods(List<Pod> pods) {
            this.pods = pods;
        }

        @Override
        public void start(Listener listener) {}

        @Override
        public boolean awaitSynced(Duration timeout) throws InterruptedException {
            return listed.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public List<Pod> list() {
            return pods;
        }

        @Override
        public void close() {}
    }

    @Test
    void theNewOwnerGainsTheCpusOnlyAfterTheDeletedOwnersContainerGaveThemUp() throws Exception {
        CpuTopology topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        // The new pod's UID sorts first, so its cgroup path comes first in every pass over the containers.
        Pod deleted = RuntimeFixtures.withStatus(guaranteed("old-owner", "dddddddd-0000-4000-8000-000000000000"));
        Pod created = RuntimeFixtures.withStatus(guaranteed("new-owner", "00000000-0000-4000-8000-00000000000a"));

        FakePods api = new FakePods();
        api.put(deleted);
        NodeAgent first = agent(topo, api, cgroups);
        first.start();
        assertThat(first.awaitReady(Duration.ofSeconds(10))).isTrue();
        CgroupPath oldPath = host.create(deleted, new Pin(topo.onlineCpus(), RuntimeFixtures.allMems(topo)));
        first.containerAppeared(host.cgroup(oldPath), oldPath, System.nanoTime());
        first.drain();
        CpuSet handedOver = first.state().pods().get(uid(deleted)).exclusiveCpus();
        assertThat(cgroups.actual.get(oldPath).cpus()).isEqualTo(handedOver);
        first.close();

        // While no agent runs, old-owner is deleted (its container is still there) and new-owner created.
        List<String> violations = new ArrayList<>();
        PinWriter watching = new PinWriter() {
            @Override
            public boolean apply(CgroupPath container, Pin pin) throws CgroupWriteException {
                Pin before = cgroups.actual.get(container);
                Pin oldOwner = cgroups.actual.get(oldPath);
                if (!container.equals(oldPath)
                        && before != null
                        && oldOwner != null
                        && pin.cpus().isSubsetOf(handedOver)) {
                    CpuSet gained = pin.cpus().difference(before.cpus());
                    if (gained.intersects(oldOwner.cpus())) {
                        violations.add(container + " was given " + gained.intersection(oldOwner.cpus())
                                + " while the deleted pod's container still held " + oldOwner.cpus());
                    }
                }
                return cgroups.apply(container, pin);
            }

            @Override
            public Optional<Pin> read(CgroupPath container) {
                return cgroups.read(container);
            }

            @Override
            public void removeQuota(CgroupPath container) {}
        };
        LatePods pods = new LatePods(List.of(created));
        NodeAgent agent = agent(topo, pods, watching);
        agent.start();
        // Before the list arrives, new-owner's container is pinned from the checkpoint: the shared pool.
        CgroupPath newPath = host.create(created, new Pin(topo.onlineCpus(), RuntimeFixtures.allMems(topo)));
        agent.containerAppeared(host.cgroup(newPath), newPath, System.nanoTime());
        agent.drain();
        assertThat(cgroups.actual.get(newPath).cpus().intersects(handedOver)).isFalse();

        pods.listed.countDown();
        assertThat(agent.awaitReady(Duration.ofSeconds(10))).isTrue();
        agent.drain();
        assertThat(agent.state().pods().get(uid(created)).exclusiveCpus())
                .as("the new pod gets the CPUs the deleted one had (the case under test)")
                .isEqualTo(handedOver);
        assertThat(cgroups.actual.get(newPath).cpus()).isEqualTo(handedOver);
        assertThat(cgroups.actual.get(oldPath).cpus().intersects(handedOver)).isFalse();
        assertThat(violations).isEmpty();
    }

    private NodeAgent agent(CpuTopology topo, PodSource pods, PinWriter writer) {
        NodeAgent agent = host.agent("hand-over", topo, pods, writer, stateDir, Duration.ofSeconds(30));
        agents.add(agent);
        return agent;
    }

    private static String uid(Pod p) {
        return p.getMetadata().getUid();
    }

    private static Pod guaranteed(String name, String uid) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("hand-over")
                .withUid(uid)
                .withCreationTimestamp("2026-11-29T00:00:00Z")
                .endMetadata()
                .withNewSpec()
                .withNodeName("hand-over")
                .addNewContainer()
                .withName("app")
                .withResources(SamplePods.guaranteed("4", "1Gi"))
                .endContainer()
                .endSpec()
                .build();
    }
}
