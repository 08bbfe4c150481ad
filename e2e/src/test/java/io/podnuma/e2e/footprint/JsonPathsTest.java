package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonPathsTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void leavesThatDifferAreNamedByPathAndTheFieldsOfEveryWriteAreLeftOut() throws Exception {
        var before = json.readTree("""
                {"metadata": {"resourceVersion": "1", "managedFields": [{"a": 1}], "name": "p"},
                 "status": {"conditions": [{"type": "Ready", "status": "False"}], "phase": "Running"}}
                """);
        var after = json.readTree("""
                {"metadata": {"resourceVersion": "2", "managedFields": [{"a": 2}], "name": "p"},
                 "status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "X"}], "phase": "Running",
                            "hostIP": "10.0.0.1"}}
                """);

        assertThat(JsonPaths.changed(before, after))
                .containsExactly("status.conditions[0].status", "status.conditions[1]", "status.hostIP");
        assertThat(JsonPaths.changed(before, before)).isEmpty();
        assertThat(JsonPaths.at(after, "status.conditions[0].status").asText()).isEqualTo("True");
        assertThat(JsonPaths.at(before, "status.hostIP").isMissingNode()).isTrue();
        assertThat(JsonPaths.at(after, "status.conditions[1]").toString()).isEqualTo("{\"type\":\"X\"}");
    }
}
