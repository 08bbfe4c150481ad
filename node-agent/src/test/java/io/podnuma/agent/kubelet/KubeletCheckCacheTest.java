package io.podnuma.agent.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeletCheckCacheTest {

    @TempDir
    Path root;

    private final AtomicInteger reads = new AtomicInteger();

    private KubeletCheckCache cache(KubeletFiles files) {
        return new KubeletCheckCache(files, f -> {
            reads.incrementAndGet();
            return KubeletCoexistence.check(f);
        });
    }

    private KubeletFiles files() {
        return new KubeletFiles(
                Optional.of(root.resolve(KubeletFiles.CPU_MANAGER_STATE)),
                Optional.of(root.resolve(KubeletFiles.MEMORY_MANAGER_STATE)),
                Optional.of(root.resolve("config.yaml")));
    }

    @Test
    void unchangedFilesAreReadOnceAndTheSameVerdictComesBack() throws IOException {
        Files.writeString(root.resolve(KubeletFiles.CPU_MANAGER_STATE), "{\"policyName\":\"none\"}");
        Files.writeString(root.resolve("config.yaml"), "kind: KubeletConfiguration\n");
        KubeletCheckCache cache = cache(files());

        KubeletCheck first = cache.get();
        for (int i = 0; i < 5; i++) {
            assertThat(cache.get()).isEqualTo(first);
        }

        assertThat(reads).hasValue(1);
        assertThat(first.agentMayWrite()).isTrue();
    }

    @Test
    void aCheckpointReplacedByARenameIsReadAgainEvenWithTheSameSizeAndTime() throws IOException {
        Path state = root.resolve(KubeletFiles.CPU_MANAGER_STATE);
        Files.writeString(state, "{\"policyName\":\"nonx\"}");
        FileTime time = FileTime.fromMillis(1_700_000_000_000L);
        Files.setLastModifiedTime(state, time);
        KubeletCheckCache cache = cache(files());
        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.CONFLICT);

        // What the kubelet does: a new file renamed over the old one (another inode), here of the same size and time.
        Path next = root.resolve("next");
        Files.writeString(next, "{\"policyName\":\"none\"}");
        Files.setLastModifiedTime(next, time);
        Files.move(next, state, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.COMPATIBLE);
        assertThat(reads).hasValue(2);
    }

    @Test
    void aConfigEditedInPlaceOrAFileAppearingOrGoingIsReadAgain() throws IOException {
        Path config = root.resolve("config.yaml");
        Files.writeString(config, "kind: KubeletConfiguration\n");
        KubeletCheckCache cache = cache(files());
        assertThat(cache.get().agentMayWrite()).isTrue();

        Files.writeString(config, "kind: KubeletConfiguration\ncpuManagerPolicy: static\n");
        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.CONFLICT);
        assertThat(reads).hasValue(2);

        Files.writeString(root.resolve(KubeletFiles.MEMORY_MANAGER_STATE), "{\"policyName\":\"Static\"}");
        assertThat(cache.get().message()).contains(KubeletFiles.MEMORY_MANAGER_STATE);
        assertThat(reads).hasValue(3);

        Files.delete(root.resolve(KubeletFiles.MEMORY_MANAGER_STATE));
        Files.writeString(config, "kind: KubeletConfiguration\ncpuManagerPolicy: none\n");
        assertThat(cache.get().agentMayWrite()).isTrue();
        assertThat(cache.get().agentMayWrite()).isTrue();
        assertThat(reads).hasValue(4);
    }
}
