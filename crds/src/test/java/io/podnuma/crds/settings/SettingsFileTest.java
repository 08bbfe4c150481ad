package io.podnuma.crds.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsFileTest {

    private static final class DemoException extends SettingsException {
        private static final long serialVersionUID = 1L;

        DemoException(List<String> problems) {
            super("demo settings", problems);
        }
    }

    private static final SettingsFile FILE =
            new SettingsFile("config", "DEMO_CONFIG", 16, "settings file", "demo settings");

    @TempDir
    Path dir;

    @Test
    void theFlagNamesTheFileElseTheVariableElseTheFallback() {
        assertThat(FILE.name(Map.of("config", "/a"), Map.of("DEMO_CONFIG", "/b"), "/c"))
                .isEqualTo("/a");
        assertThat(FILE.name(Map.of(), Map.of("DEMO_CONFIG", "/b"), "/c")).isEqualTo("/b");
        assertThat(FILE.name(Map.of(), Map.of(), "/c")).isEqualTo("/c");
        assertThat(FILE.name(Map.of(), Map.of(), null)).isNull();
    }

    @Test
    void readsAFileUpToItsLimitAndRefusesALargerOneOrAMissingOneSayingHowToNameIt() throws Exception {
        Path ok = Files.writeString(dir.resolve("ok.yaml"), "a: 1\n");
        assertThat(FILE.read(ok.toString(), DemoException::new)).isEqualTo("a: 1\n");

        Path big = Files.writeString(dir.resolve("big.yaml"), "x".repeat(17));
        assertThatThrownBy(() -> FILE.read(big.toString(), DemoException::new))
                .isInstanceOf(DemoException.class)
                .hasMessage("invalid demo settings: " + big + ": the file has 17 bytes, more than the 16 demo settings"
                        + " may have");

        String missing = dir.resolve("missing.yaml").toString();
        assertThatThrownBy(() -> FILE.read(missing, DemoException::new))
                .isInstanceOf(DemoException.class)
                .hasMessage("invalid demo settings: " + missing
                        + ": the settings file does not exist (set it with --config or DEMO_CONFIG)");
    }

    @Test
    void severalProblemsAreListedOneALine() {
        assertThat(new DemoException(List.of("a", "b")))
                .hasMessage("invalid demo settings (2 problems):\n  - a\n  - b")
                .extracting(SettingsException::problems)
                .isEqualTo(List.of("a", "b"));
    }
}
