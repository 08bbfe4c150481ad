package io.podnuma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/** JMH needs its parameter lists as constants; they must stay in step with the input catalogues. */
class BenchmarkParamsTest {

    @Test
    void allocationBenchmarkListsEveryScenario() throws Exception {
        assertThat(params(AllocationBenchmark.class, "scenario"))
                .containsExactlyElementsOf(AllocationScenario.all().stream()
                        .map(AllocationScenario::id)
                        .toList());
    }

    @Test
    void mergeBenchmarkListsEveryShape() throws Exception {
        assertThat(params(MergeBenchmark.class, "shape"))
                .containsExactlyElementsOf(
                        MergeShapes.all().stream().map(MergeShape::id).toList());
    }

    @Test
    void exhaustiveBenchmarkListsExactlyTheFeasibleShapes() throws Exception {
        assertThat(params(ExhaustiveMergeBenchmark.class, "shape"))
                .containsExactlyElementsOf(MergeShapes.all().stream()
                        .filter(MergeShape::exhaustiveFeasible)
                        .map(MergeShape::id)
                        .toList());
    }

    @Test
    void simulateBenchmarkUsesTheWorkloadId() throws Exception {
        assertThat(params(SimulateBenchmark.class, "scenario")).containsExactly(SimulateWorkload.ID);
    }

    private static List<String> params(Class<?> benchmark, String field) throws NoSuchFieldException {
        return List.of(benchmark.getField(field).getAnnotation(Param.class).value());
    }
}
