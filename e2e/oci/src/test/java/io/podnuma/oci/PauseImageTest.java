package io.podnuma.oci;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pause image as built from the jar's pause.c: the lines its Java constants promise, and its one layer. */
class PauseImageTest {
    @TempDir
    Path dir;

    @Test
    void theSandboxImageNameIsTheOneConstant() {
        assertThat(PauseImage.NAME.reference()).isEqualTo("podnuma.local/pause:1");
        assertThat(PauseImage.VERSION_LINE).isEqualTo("podnuma pause 1");
    }

    @Test
    void buildsAnImageOfTheStaticPauseBinaryThatPrintsWhatTheConstantsSay() throws Exception {
        OciArchive archive = PauseImage.build(dir);

        assertThat(archive.file()).isEqualTo(dir.resolve(PauseImage.TAR_FILE_NAME));
        assertThat(archive.name()).isEqualTo(PauseImage.NAME);
        TarEntries layer = TarEntries.read(
                TarEntries.read(archive.file()).get(archive.layer().path()).content());
        assertThat(layer.names()).containsExactly("pause");
        assertThat(layer.get("pause").mode()).isEqualTo(0755);

        Process version = new ProcessBuilder(dir.resolve("pause").toString(), "--version").start();
        assertThat(version.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(version.exitValue()).isZero();
        assertThat(new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo(PauseImage.VERSION_LINE + "\n");

        Process pause = new ProcessBuilder(dir.resolve("pause").toString()).start();
        try {
            var out = new BufferedReader(new InputStreamReader(pause.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo(PauseImage.STARTED_LINE);
            pause.destroy(); // SIGTERM
            assertThat(pause.waitFor(5, TimeUnit.SECONDS)).isTrue();
            assertThat(pause.exitValue()).isZero();
        } finally {
            pause.destroyForcibly();
        }
    }
}
