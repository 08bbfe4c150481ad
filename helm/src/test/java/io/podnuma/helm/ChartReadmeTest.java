package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The chart README's values table is generated from values.schema.json and values.yaml; this test fails when it
 * drifts. {@code -Dpodnuma.helm.updateReadme=true} rewrites it instead.
 */
class ChartReadmeTest {

    static final String UPDATE_PROPERTY = "podnuma.helm.updateReadme";

    @Test
    void theValuesTableIsTheSchemas() throws IOException {
        Path readme = ChartFiles.file("README.md");
        String current = ChartFiles.text(readme);
        String table = ValuesTable.markdown(ValuesTable.rows(ChartFiles.schema(), ChartFiles.values()));
        String expected = ValuesTable.replaceTable(current, table);
        if (Boolean.getBoolean(UPDATE_PROPERTY) && !expected.equals(current)) {
            Files.writeString(readme, expected, StandardCharsets.UTF_8);
            current = expected;
        }
        assertThat(current)
                .as(
                        "%s: the values table differs from values.schema.json/values.yaml; regenerate it with"
                                + " ./mvnw -B -ntp -pl helm -am test -Dtest=ChartReadmeTest"
                                + " -Dsurefire.failIfNoSpecifiedTests=false -D%s=true",
                        readme, UPDATE_PROPERTY)
                .isEqualTo(expected);
    }

    @Test
    void everyValueHasARow() {
        assertThat(ValuesTable.rows(ChartFiles.schema(), ChartFiles.values()))
                .extracting(ValuesTable.Row::key)
                .contains(
                        "operator.replicas",
                        "operator.image.repository",
                        "agent.tolerations",
                        "agent.resources.limits.memory",
                        "nodeResourceTopology.installCrd",
                        "admissionPolicy.enabled")
                .doesNotHaveDuplicates();
    }
}
