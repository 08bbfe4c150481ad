package io.podnuma.agent.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.pod.Resources;
import org.junit.jupiter.api.Test;

class BudgetAnnotationTest {

    private static final String KEY = "podnuma.io/pod-resources";

    @Test
    void readsRequestsAndLimitsWithStringOrNumberQuantities() {
        Resources r = BudgetAnnotation.parse(
                KEY, "{\"requests\":{\"cpu\":8,\"memory\":\"16Gi\"},\"limits\":{\"cpu\":\"8\",\"memory\":\"16Gi\"}}");
        assertThat(r.requests().cpuMillis()).isEqualTo(8000);
        assertThat(r.limits().memoryBytes().getAsLong()).isEqualTo(MemoryQuantity.parseBytes("16Gi"));
        assertThat(r.guaranteedCpuAndMemory()).isTrue();
    }

    @Test
    void errorsNameTheAnnotationFieldAndValue() {
        assertThatThrownBy(() -> BudgetAnnotation.parse(KEY, "cpu=8"))
                .isInstanceOf(PodMappingException.class)
                .hasMessageStartingWith("metadata.annotations[podnuma.io/pod-resources] is not valid JSON");
        assertThatThrownBy(() -> BudgetAnnotation.parse(KEY, "{\"limit\":{\"cpu\":\"8\"}}"))
                .hasMessage("metadata.annotations[podnuma.io/pod-resources] has an unknown key \"limit\": allowed"
                        + " requests and limits");
        assertThatThrownBy(() -> BudgetAnnotation.parse(KEY, "{\"limits\":{\"memory\":\"lots\"}}"))
                .hasMessageStartingWith("metadata.annotations[podnuma.io/pod-resources].limits.memory \"lots\" is not a"
                        + " valid memory quantity");
        assertThatThrownBy(() -> BudgetAnnotation.parse(KEY, "{\"limits\":{\"cpu\":[1]}}"))
                .hasMessageContaining("limits.cpu must be a quantity string");
        assertThatThrownBy(() -> BudgetAnnotation.parse(KEY, "{\"limits\":{}}"))
                .hasMessageContaining("names neither cpu nor memory");
        assertThatThrownBy(() -> BudgetAnnotation.parse(KEY, "[]")).hasMessageContaining("must be a JSON object");
    }
}
