package io.podnuma.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlPlaneBinariesTest {

    @TempDir
    Path tmp;

    private static Path executable(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private Path completeBinDir() throws IOException {
        Path bin = tmp.resolve("bin");
        for (String tool : ControlPlaneBinaries.TOOLS) {
            executable(bin.resolve(tool), "#!/bin/sh\n");
        }
        return bin;
    }

    private ControlPlaneBinaries binaries(Map<String, String> env, Path workingDir) {
        return new ControlPlaneBinaries(env, null, workingDir, List.of());
    }

    @Test
    void theEnvironmentVariableWinsWhenItNamesACompleteDirectory() throws IOException {
        Path bin = completeBinDir();
        assertThat(binaries(Map.of(ControlPlaneBinaries.BIN_ENV, bin.toString()), tmp)
                        .find())
                .isEqualTo(bin.toAbsolutePath());
    }

    @Test
    void anIncompleteDirectoryIsAnErrorNamingTheMissingTools() throws IOException {
        Path bin = completeBinDir();
        Files.delete(bin.resolve("kwok"));
        Files.delete(bin.resolve("helm"));
        assertThatThrownBy(() -> binaries(Map.of(ControlPlaneBinaries.BIN_ENV, bin.toString()), tmp)
                        .find())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PODNUMA_CONTROLPLANE_BIN=" + bin)
                .hasMessageContaining("lacks the executables [kwok, helm]");
    }

    @Test
    void withoutAScriptToFindThePlaneIsUnavailable() {
        assertThatThrownBy(() -> binaries(Map.of(), tmp).find())
                .isInstanceOf(ControlPlaneUnavailableException.class)
                .hasMessageContaining("no build-controlplane.sh found in or above " + tmp)
                .hasMessageContaining("PODNUMA_CONTROLPLANE_BIN");
    }

    @Test
    void withoutGoThePlaneIsUnavailable() throws IOException {
        Path module = tmp.resolve("repo/node-agent");
        Files.createDirectories(module);
        executable(tmp.resolve("repo/e2e/controlplane/build-controlplane.sh"), "exit 1\n");
        assertThatThrownBy(() -> binaries(Map.of("PATH", tmp.resolve("empty").toString()), module)
                        .find())
                .isInstanceOf(ControlPlaneUnavailableException.class)
                .hasMessageContaining("no Go toolchain");
    }

    @Test
    void theScriptFoundAboveTheModuleIsRunWithGoAndItsLastLineIsTheBinDir() throws IOException {
        Path bin = completeBinDir();
        Path goDir = tmp.resolve("go/bin");
        executable(goDir.resolve("go"), "#!/bin/sh\n");
        Path module = tmp.resolve("repo/operator");
        Files.createDirectories(module);
        // The fake build checks that it was handed the Go we found, like the real one uses it.
        executable(
                tmp.resolve("repo/e2e/controlplane/build-controlplane.sh"),
                "[ \"$GO\" = \"" + goDir.resolve("go") + "\" ] || exit 3\n"
                        + "[ \"$1\" = --print-bin-dir ] || exit 4\n"
                        + "echo building >&2\necho " + bin + "\n");
        assertThat(binaries(Map.of("PATH", goDir.toString()), module).find()).isEqualTo(bin.toAbsolutePath());
    }

    @Test
    void aFailingBuildIsAnErrorNotASkip() throws IOException {
        Path goDir = tmp.resolve("go/bin");
        executable(goDir.resolve("go"), "#!/bin/sh\n");
        executable(tmp.resolve("build-controlplane.sh"), "echo 'go: module lookup disabled' >&2\nexit 1\n");
        assertThatThrownBy(() -> binaries(Map.of("GO", goDir.resolve("go").toString()), tmp)
                        .find())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("failed with exit code 1");
    }
}
