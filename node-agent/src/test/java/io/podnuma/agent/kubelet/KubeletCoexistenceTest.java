package io.podnuma.agent.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KubeletCoexistenceTest {

    @TempDir
    Path root;

    /** Installs a fixture under the kubelet's own file name, so messages name what an operator would see. */
    private Path install(String fixture, String asName) throws IOException {
        Path target = root.resolve(asName);
        try (InputStream in = KubeletCoexistenceTest.class.getResourceAsStream(fixture)) {
            assertThat(in).as("fixture %s", fixture).isNotNull();
            Files.copy(in, target);
        }
        return target;
    }

    private KubeletFiles only(String slot, Path file) {
        return switch (slot) {
            case "cpu" -> new KubeletFiles(Optional.of(file), Optional.empty(), Optional.empty());
            case "memory" -> new KubeletFiles(Optional.empty(), Optional.of(file), Optional.empty());
            case "config" -> new KubeletFiles(Optional.empty(), Optional.empty(), Optional.of(file));
            default -> throw new IllegalArgumentException(slot);
        };
    }

    private static String fileName(String slot) {
        return switch (slot) {
            case "cpu" -> KubeletFiles.CPU_MANAGER_STATE;
            case "memory" -> KubeletFiles.MEMORY_MANAGER_STATE;
            default -> "config.yaml";
        };
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            cpu    | cpu-none.json             | COMPATIBLE | policyName is "none"
            cpu    | cpu-static.json           | CONFLICT   | policyName is "static": the kubelet's cpu manager pins containers itself; set cpuManagerPolicy: none in the kubelet configuration, delete
            memory | memory-none.json          | COMPATIBLE | policyName is "None"
            memory | memory-static.json        | CONFLICT   | policyName is "Static": the kubelet's memory manager pins containers itself; set memoryManagerPolicy: None
            config | config-none.yaml          | COMPATIBLE | every manager policy is none
            config | config-defaults.yaml      | COMPATIBLE | every manager policy is none
            config | config-static.yaml        | CONFLICT   | cpuManagerPolicy is "static": set cpuManagerPolicy: none (or remove it) and restart the kubelet
            config | config-memory-static.yaml | CONFLICT   | memoryManagerPolicy is "Static": set memoryManagerPolicy: None
            cpu    | cpu-truncated.json        | UNREADABLE | is not valid JSON (
            cpu    | cpu-no-policy.json        | UNREADABLE | has no policyName field
            cpu    | cpu-number-policy.json    | UNREADABLE | policyName is 7: expected a policy name such as "none"
            cpu    | cpu-array.json            | UNREADABLE | expected a JSON object with policyName, found array
            memory | cpu-empty.json            | UNREADABLE | expected a JSON object with policyName, found nothing
            config | config-wrong-kind.yaml    | UNREADABLE | kind is "ConfigMap", expected KubeletConfiguration
            config | config-broken.yaml        | UNREADABLE | is not valid YAML (
            config | config-policy-list.yaml   | UNREADABLE | cpuManagerPolicy is ["static"]: expected a string such as "none"
            config | config-sequence.yaml      | UNREADABLE | expected a YAML mapping, found array
            """)
    void eachFileIsJudgedAndExplained(String slot, String fixture, FileVerdict verdict, String fragment)
            throws IOException {
        Path file = install(fixture, fileName(slot));

        KubeletCheck check = KubeletCoexistence.check(only(slot, file));

        assertThat(check.verdict()).isEqualTo(verdict);
        assertThat(check.message()).startsWith(file.toString()).contains(fragment);
        assertThat(check.agentMayWrite()).isEqualTo(verdict == FileVerdict.COMPATIBLE);
        if (verdict == FileVerdict.UNREADABLE) {
            assertThat(check.message()).endsWith("the agent writes no cpuset until the file is fixed or removed");
        }
    }

    @Test
    void aConfigWithTwoActiveManagersNamesBoth() throws IOException {
        Path file = install("config-static.yaml", "config.yaml");

        String message = KubeletCoexistence.check(only("config", file)).message();

        assertThat(message)
                .contains("cpuManagerPolicy is \"static\"")
                .contains("topologyManagerPolicy is \"single-numa-node\": set topologyManagerPolicy: none")
                .doesNotContain("memoryManagerPolicy");
    }

    @Test
    void absentFilesAreNotCheckedAndNoConflict() {
        KubeletCheck check =
                KubeletCoexistence.check(KubeletFiles.inRootDir(root, Optional.of(root.resolve("config.yaml"))));

        assertThat(check.files()).hasSize(3).allMatch(f -> f.verdict() == FileVerdict.NOT_CHECKED);
        assertThat(check.verdict()).isEqualTo(FileVerdict.NOT_CHECKED);
        assertThat(check.agentMayWrite()).isTrue();
        assertThat(check.message())
                .startsWith("not checked: none of ")
                .contains(root.resolve(KubeletFiles.CPU_MANAGER_STATE).toString())
                .contains(root.resolve("config.yaml").toString());
    }

    @Test
    void nothingConfiguredIsNotChecked() {
        KubeletCheck check =
                KubeletCoexistence.check(new KubeletFiles(Optional.empty(), Optional.empty(), Optional.empty()));

        assertThat(check.verdict()).isEqualTo(FileVerdict.NOT_CHECKED);
        assertThat(check.message()).isEqualTo("not checked: no kubelet file is configured");
    }

    @Test
    void oneConflictingFileOutweighsCompatibleOnesAndOnlyItIsReported() throws IOException {
        install("cpu-none.json", KubeletFiles.CPU_MANAGER_STATE);
        Path memory = install("memory-static.json", KubeletFiles.MEMORY_MANAGER_STATE);
        install("config-defaults.yaml", "config.yaml");

        KubeletCheck check =
                KubeletCoexistence.check(KubeletFiles.inRootDir(root, Optional.of(root.resolve("config.yaml"))));

        assertThat(check.verdict()).isEqualTo(FileVerdict.CONFLICT);
        assertThat(check.agentMayWrite()).isFalse();
        assertThat(check.message())
                .startsWith(memory + ": policyName is \"Static\"")
                .doesNotContain("cpu_manager_state");
    }

    @Test
    void aConflictOutweighsAnUnreadableFile() throws IOException {
        install("cpu-truncated.json", KubeletFiles.CPU_MANAGER_STATE);
        install("config-memory-static.yaml", "config.yaml");

        KubeletCheck check =
                KubeletCoexistence.check(KubeletFiles.inRootDir(root, Optional.of(root.resolve("config.yaml"))));

        assertThat(check.verdict()).isEqualTo(FileVerdict.CONFLICT);
        assertThat(check.files())
                .extracting(FileCheck::verdict)
                .containsExactly(FileVerdict.UNREADABLE, FileVerdict.NOT_CHECKED, FileVerdict.CONFLICT);
    }

    @Test
    void aDirectoryWhereTheFileShouldBeIsUnreadableNotACrash() throws IOException {
        Path dir = Files.createDirectory(root.resolve(KubeletFiles.CPU_MANAGER_STATE));

        KubeletCheck check = KubeletCoexistence.check(only("cpu", dir));

        assertThat(check.verdict()).isEqualTo(FileVerdict.UNREADABLE);
        assertThat(check.message()).startsWith(dir + " cannot be read: ");
        assertThat(check.agentMayWrite()).isFalse();
    }
}
