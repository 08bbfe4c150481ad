package io.podnuma.operator.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The module README's settings table is the enum's, row for row, so the chart's authors read what the code does. */
class SettingsTableTest {

    static final String HEADER = "| Key | Flag | Default | What |";

    static List<String> rows() {
        return Arrays.stream(OperatorSetting.values())
                .map(SettingsTableTest::row)
                .toList();
    }

    private static String row(OperatorSetting s) {
        String dflt = s.defaultValue() == null
                ? "(required)"
                : s.defaultValue().isEmpty() ? "(empty)" : "`" + s.defaultValue() + "`";
        return "| `" + s.key() + "` | `--" + s.flag() + "` | " + dflt + " | " + s.description() + " |";
    }

    @Test
    void theReadmeTableListsEverySettingAsTheEnumDefinesIt() throws IOException {
        List<String> readme = Files.readAllLines(Path.of("README.md"), StandardCharsets.UTF_8);
        int header = readme.indexOf(HEADER);
        assertThat(header).as("README.md has the table header " + HEADER).isNotNegative();
        List<String> table = readme.subList(header + 2, readme.size()).stream()
                .takeWhile(l -> l.startsWith("|"))
                .toList();
        assertThat(String.join("\n", table))
                .as("paste these rows into README.md")
                .isEqualTo(rows().stream().collect(Collectors.joining("\n")));
    }
}
