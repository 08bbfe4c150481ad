package io.podnuma.agent.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    private static KubeletCheck check(Path config) {
        return new KubeletCheck(List.of(KubeletCoexistence.config(config)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            config-none.yaml          | COMPATIBLE | every manager policy is none
            config-defaults.yaml      | COMPATIBLE | every manager policy is none
            config-static.yaml        | CONFLICT   | cpuManagerPolicy is "static": set cpuManagerPolicy: none (or remove it) and restart the kubelet
            config-memory-static.yaml | CONFLICT   | memoryManagerPolicy is "Static": set memoryManagerPolicy: None
            config-wrong-kind.yaml    | UNREADABLE | kind is "ConfigMap", expected KubeletConfiguration
            config-broken.yaml        | UNREADABLE | is not valid YAML (
            config-policy-list.yaml   | UNREADABLE | cpuManagerPolicy is ["static"]: expected a string such as "none"
            config-sequence.yaml      | UNREADABLE | expected a YAML mapping, found array
            """)
    void eachConfigurationIsJudgedAndExplained(String fixture, FileVerdict verdict, String fragment)
            throws IOException {
        Path file = install(fixture, "config.yaml");

        KubeletCheck check = check(file);

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

        String message = check(file).message();

        assertThat(message)
                .contains("cpuManagerPolicy is \"static\"")
                .contains("topologyManagerPolicy is \"single-numa-node\": set topologyManagerPolicy: none")
                .doesNotContain("memoryManagerPolicy");
    }

    @Test
    void anAbsentConfigurationIsNotChecked() {
        Path file = root.resolve("config.yaml");

        KubeletCheck check = check(file);

        assertThat(check.verdict()).isEqualTo(FileVerdict.NOT_CHECKED);
        assertThat(check.agentMayWrite()).isTrue();
        assertThat(check.message()).isEqualTo("not checked: none of " + file + " exists");
    }

    @Test
    void nothingConfiguredIsNotChecked() {
        KubeletCheck check = new KubeletCheck(List.of());

        assertThat(check.verdict()).isEqualTo(FileVerdict.NOT_CHECKED);
        assertThat(check.message()).isEqualTo("not checked: no kubelet file is configured");
    }

    @Test
    void aDirectoryWhereTheFileShouldBeIsUnreadableNotACrash() throws IOException {
        Path dir = Files.createDirectory(root.resolve("config.yaml"));

        KubeletCheck check = check(dir);

        assertThat(check.verdict()).isEqualTo(FileVerdict.UNREADABLE);
        assertThat(check.message()).startsWith(dir + " cannot be read: ");
        assertThat(check.agentMayWrite()).isFalse();
    }
}
