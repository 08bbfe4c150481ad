package io.podnuma.agent.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeletCheckCacheTest {

    @TempDir
    Path root;

    private final AtomicInteger configReads = new AtomicInteger();

    private KubeletCheckCache cache(Optional<KubeletPolicyQuery> kubelet) {
        return new KubeletCheckCache(kubelet, Optional.of(root.resolve("config.yaml")), f -> {
            configReads.incrementAndGet();
            return KubeletCoexistence.config(f);
        });
    }

    @Test
    void theKubeletIsAskedEveryTimeAndTheUnchangedConfigReadOnce() throws IOException {
        Files.writeString(root.resolve("config.yaml"), "kind: KubeletConfiguration\n");
        Path socket = root.resolve(KubeletFiles.KUBELET_SOCKET);
        try (FakeKubelet kubelet = FakeKubelet.start(socket);
                KubeletCheckCache cache = cache(Optional.of(new KubeletPolicyQuery(socket, Duration.ofSeconds(5))))) {
            KubeletCheck first = cache.get();
            for (int i = 0; i < 4; i++) {
                assertThat(cache.get()).isEqualTo(first);
            }
            assertThat(first.verdict()).isEqualTo(FileVerdict.COMPATIBLE);
            assertThat(first.files()).extracting(FileCheck::file).containsExactly(socket, root.resolve("config.yaml"));
            assertThat(kubelet.calls).hasValue(5);
            assertThat(configReads).hasValue(1);

            kubelet.answering(FakeKubelet.staticCpus(1));
            assertThat(cache.get().verdict()).isEqualTo(FileVerdict.CONFLICT);
            assertThat(configReads).hasValue(1);
        }
    }

    @Test
    void aConfigReplacedByARenameIsReadAgainEvenWithTheSameSizeAndTime() throws IOException {
        Path config = root.resolve("config.yaml");
        Files.writeString(config, "cpuManagerPolicy: nonx\n");
        FileTime time = FileTime.fromMillis(1_700_000_000_000L);
        Files.setLastModifiedTime(config, time);
        KubeletCheckCache cache = cache(Optional.empty());
        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.CONFLICT);

        // A new file renamed over the old one (another inode), here of the same size and time.
        Path next = root.resolve("next");
        Files.writeString(next, "cpuManagerPolicy: none\n");
        Files.setLastModifiedTime(next, time);
        Files.move(next, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.COMPATIBLE);
        assertThat(configReads).hasValue(2);
    }

    @Test
    void aConfigEditedInPlaceAppearingOrGoingIsReadAgain() throws IOException {
        Path config = root.resolve("config.yaml");
        KubeletCheckCache cache = cache(Optional.empty());
        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.NOT_CHECKED);

        Files.writeString(config, "kind: KubeletConfiguration\n");
        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.COMPATIBLE);

        Files.writeString(config, "kind: KubeletConfiguration\ncpuManagerPolicy: static\n");
        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.CONFLICT);

        Files.delete(config);
        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.NOT_CHECKED);
        assertThat(cache.get().verdict()).isEqualTo(FileVerdict.NOT_CHECKED);
        assertThat(configReads).hasValue(4);
    }
}
