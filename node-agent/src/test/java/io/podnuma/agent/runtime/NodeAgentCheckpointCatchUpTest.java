package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.checkpoint.CheckpointCodec;
import io.podnuma.agent.checkpoint.CheckpointStore;
import io.podnuma.agent.checkpoint.HostCheckpointFilesExcept;
import io.podnuma.agent.checkpoint.TopologyFingerprint;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.testkit.agent.SampleConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint write that failed (the state directory full or read-only) is made again by the next reconcile once the
 * directory takes writes, not only by the next decision: a node where no pod changes for hours would otherwise keep a
 * checkpoint without the pods admitted meanwhile, and a restart would forget them.
 */
class NodeAgentCheckpointCatchUpTest {

    @TempDir
    Path stateDir;

    private NodeAgent agent;

    @AfterEach
    void close() {
        if (agent != null) {
            agent.close();
        }
    }

    /** The file system, with every temp file write failing as a full disk's does while {@link #full} is set. */
    static final class FullDisk extends HostCheckpointFilesExcept {
        volatile boolean full;

        @Override
        public void write(Path temp, byte[] bytes) throws IOException {
            if (full) {
                throw new IOException("No space left on device");
            }
            super.write(temp, bytes);
        }
    }

    @Test
    void theReconcileAfterTheDirectoryRecoversWritesThePodsAdmittedMeanwhile() throws Exception {
        CpuTopology topo = new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        FakeHost host = new FakeHost();
        FakePods api = new FakePods();
        FullDisk disk = new FullDisk();
        agent = new InMemoryAgent(
                        "catch-up",
                        topo,
                        InMemoryAgent.podScopeConfig("catch-up", SampleConfigs.reservedCpuCount(2)),
                        host.naming,
                        host.cgroups,
                        java.util.List::of,
                        stateDir,
                        api)
                .withCheckpointFiles(disk)
                .build();
        agent.start();
        assertThat(agent.awaitReady(Duration.ofSeconds(10))).isTrue();

        disk.full = true;
        Pod trader = RuntimeFixtures.podOfKind(1, "trader", "trader", "2");
        api.put(trader);
        agent.drain();
        String uid = trader.getMetadata().getUid();
        assertThat(agent.state().pods()).containsKey(uid);
        assertThat(podsOnDisk(topo)).as("the write failed").doesNotContain(uid);

        disk.full = false;
        agent.reconcileNow();
        assertThat(podsOnDisk(topo)).as("written again by the reconcile").contains(uid);
    }

    private Set<String> podsOnDisk(CpuTopology topo) throws Exception {
        Path file = stateDir.resolve(CheckpointStore.DEFAULT_FILE_NAME);
        if (!Files.exists(file)) {
            return Set.of();
        }
        return CheckpointCodec.decode(Files.readAllBytes(file), TopologyFingerprint.of(topo))
                .state()
                .pods()
                .keySet();
    }
}
