package io.podnuma.testkit.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's state directory faults beside a file held open for writing, as the agent holds its lock (root only). */
class TmpfsStateDirIT {

    @TempDir
    Path dir;

    @Test
    void readOnlyAndBackWhileTheAgentHoldsItsLockFileOpenForWriting() throws Exception {
        Path state = dir.resolve("state");
        Optional<TmpfsStateDir> mounted = TmpfsStateDir.mount(state);
        Assumptions.assumeTrue(mounted.isPresent(), "no tmpfs can be mounted here (root with CAP_SYS_ADMIN needed)");
        try (TmpfsStateDir mount = mounted.get();
                FileChannel lockFile = FileChannel.open(
                        state.resolve("agent.lock"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                FileLock ignored = lockFile.lock()) {
            Files.writeString(state.resolve("node-state.json"), "before");

            mount.readOnly();
            assertThatThrownBy(() -> Files.writeString(state.resolve("node-state.json"), "during"))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("Read-only file system");
            assertThatThrownBy(() -> Files.createTempFile(state, "node-state.json.tmp-", ""))
                    .hasMessageContaining("Read-only file system");
            assertThat(Files.readString(state.resolve("node-state.json"))).isEqualTo("before");

            mount.writable();
            Files.writeString(state.resolve("node-state.json"), "after");
            assertThat(Files.readString(state.resolve("node-state.json"))).isEqualTo("after");

            mount.readOnly();
        }
        assertThat(mountsOf(state))
                .as("close takes off the read-only mount and the tmpfs")
                .isZero();
        assertThat(Files.exists(state.resolve("node-state.json"))).isFalse();
    }

    private static long mountsOf(Path target) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8).stream()
                .map(l -> l.split(" "))
                .filter(f -> f.length > 2 && f[1].equals(target.toString()))
                .count();
    }
}
