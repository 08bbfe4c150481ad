package io.podnuma.agent.checkpoint;

import static io.podnuma.agent.checkpoint.CheckpointFixtures.ALLOCATOR;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.CONFIG_HASH;
import static io.podnuma.agent.checkpoint.CheckpointFixtures.FINGERPRINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;
import io.podnuma.agent.engine.topology.NumaMask;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every checkpoint format ever written stays readable: each version has a file under
 * {@code src/test/resources/checkpoint/v<N>/}, written by that version's agent and never regenerated, whose
 * content is pinned here field by field.
 */
class CheckpointCompatibilityTest {

    @TempDir
    Path dir;

    @Test
    void version1ReadsWithEveryFieldInPlace() throws IOException {
        byte[] v1 = resource("/checkpoint/v1/node-state.json");
        Files.write(dir.resolve(CheckpointStore.DEFAULT_FILE_NAME), v1);
        CheckpointRead read = new CheckpointStore(dir).read(FINGERPRINT, CONFIG_HASH, ALLOCATOR::validate);

        assertThat(read).isInstanceOf(CheckpointRead.Loaded.class);
        CheckpointRead.Loaded loaded = (CheckpointRead.Loaded) read;
        assertThat(loaded.configChanged()).isFalse();
        // The fingerprint of the same machine must not change between releases, or every node would drop its
        // checkpoint on upgrade.
        assertThat(loaded.checkpoint().topology().value())
                .isEqualTo("sha256:b3b7029ccd133f6beacbc4f089c5f0ec8d63026f4d8019f58699b030bedcfae2");
        NodeState s = loaded.checkpoint().state();
        assertThat(s.sharedPool()).isEqualTo(CpuSet.parse("0,3,5-6,9,11"));
        assertThat(s.pods().keySet()).containsExactly("uid-bubble", "uid-plain");

        PodAssignment bubble = s.pods().get("uid-bubble");
        assertThat(bubble.placement()).isEqualTo(PodPlacement.POD_LEVEL);
        assertThat(bubble.numaAffinity()).isEqualTo(NumaMask.of(List.of(0)));
        assertThat(bubble.bubble()).isEqualTo(CpuSet.parse("2,4,8,10"));
        assertThat(bubble.podSharedPool()).isEqualTo(CpuSet.parse("4,10"));
        assertThat(bubble.podMemory())
                .containsExactly(
                        new MemoryBlock(MemoryResource.MEMORY, 1L << 30, NumaMask.of(List.of(0)), Map.of(0, 1L << 30)));
        assertThat(bubble.containers())
                .extracting(ContainerAssignment::name, ContainerAssignment::kind, ContainerAssignment::cpus)
                .containsExactly(
                        tuple("log", AssignmentKind.POD_SHARED, CpuSet.parse("4,10")),
                        tuple("main", AssignmentKind.EXCLUSIVE, CpuSet.parse("2,8")));
        assertThat(bubble.containers().get(1).memory())
                .containsExactly(new MemoryBlock(MemoryResource.MEMORY, 512L << 20, NumaMask.of(List.of(0)), Map.of()));

        PodAssignment plain = s.pods().get("uid-plain");
        assertThat(plain.bubble()).isEqualTo(CpuSet.empty());
        assertThat(plain.containers().getFirst().cpus()).isEqualTo(CpuSet.parse("1,7"));
        assertThat(plain.containers().getFirst().memoryNodes()).isEqualTo(NumaMask.of(List.of(1)));
    }

    @Test
    void theCurrentVersionRewritesItsFixtureByteForByte() throws Exception {
        // Holds while version 1 is current; when version 2 arrives, check in v2/ and move this to it.
        assertThat(CheckpointCodec.VERSION).isEqualTo(1);
        byte[] v1 = resource("/checkpoint/v1/node-state.json");
        assertThat(CheckpointCodec.encode(CheckpointCodec.decode(v1, FINGERPRINT)))
                .isEqualTo(v1);
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = CheckpointCompatibilityTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }
}
