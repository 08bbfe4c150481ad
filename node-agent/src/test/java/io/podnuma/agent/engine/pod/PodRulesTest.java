package io.podnuma.agent.engine.pod;

import static io.podnuma.agent.engine.pod.TestPods.guaranteed;
import static io.podnuma.agent.engine.pod.TestPods.list;
import static io.podnuma.agent.engine.pod.TestPods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §1: QoS, budgets and per-container qualification. */
class PodRulesTest {

    static Stream<Arguments> qosCases() {
        return Stream.of(
                // with pod-level resources: the budget alone decides
                Arguments.of(
                        "budget req == lim",
                        pod("p").budget("4", "4Gi").app("a", null, null).build(),
                        PodQos.GUARANTEED),
                Arguments.of(
                        "budget limits only (requests default)",
                        pod("p").budget(new Resources(null, list("4", "4Gi"))).build(),
                        PodQos.GUARANTEED),
                Arguments.of(
                        "budget req < lim",
                        pod("p").budget(new Resources(list("2", "4Gi"), list("4", "4Gi")))
                                .build(),
                        PodQos.BURSTABLE),
                Arguments.of(
                        "budget cpu only",
                        pod("p").budget(Resources.guaranteed(list("4", null))).build(),
                        PodQos.BURSTABLE),
                Arguments.of(
                        "budget guaranteed, burstable container",
                        pod("p").budget("4", "4Gi")
                                .app("a", new Resources(list("1", null), null))
                                .build(),
                        PodQos.GUARANTEED),
                // classic
                Arguments.of(
                        "every container req == lim",
                        pod("p").init("i", "1", "1Gi").app("a", "2", "1Gi").build(),
                        PodQos.GUARANTEED),
                Arguments.of(
                        "fractional but equal", pod("p").app("a", "500m", "1Gi").build(), PodQos.GUARANTEED),
                Arguments.of(
                        "one container without resources",
                        pod("p").app("a", "2", "1Gi").app("b", null, null).build(),
                        PodQos.BURSTABLE),
                Arguments.of(
                        "init container without resources",
                        pod("p").init("i", null, null).app("a", "2", "1Gi").build(),
                        PodQos.BURSTABLE),
                Arguments.of("memory missing", pod("p").app("a", "2", null).build(), PodQos.BURSTABLE),
                Arguments.of("nothing at all", pod("p").app("a", null, null).build(), PodQos.BEST_EFFORT),
                Arguments.of(
                        "ephemeral containers do not count",
                        pod("p").app("a", "1", "1Gi").ephemeral("dbg").build(),
                        PodQos.GUARANTEED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("qosCases")
    void qos(String name, Pod pod, PodQos expected) {
        assertThat(PodRules.qos(pod)).isEqualTo(expected);
    }

    static Stream<Arguments> budgetCases() {
        return Stream.of(
                Arguments.of("whole", pod("p").budget("8", "1Gi").build(), 8),
                Arguments.of("2000m is whole", pod("p").budget("2000m", "1Gi").build(), 2),
                Arguments.of("fractional", pod("p").budget("2500m", "1Gi").build(), 0),
                Arguments.of(
                        "burstable",
                        pod("p").budget(new Resources(list("2", "1Gi"), list("4", "1Gi")))
                                .build(),
                        0),
                Arguments.of(
                        "no pod-level resources", pod("p").app("a", "4", "1Gi").build(), 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("budgetCases")
    void cpuBudget(String name, Pod pod, int expected) {
        assertThat(PodRules.cpuBudget(pod)).isEqualTo(expected);
    }

    @Test
    void memoryBudgetSumsMemoryAndEachHugepageSize() {
        Pod p = pod("p").budget("4", "8Gi")
                .budgetHugepages("2Mi", "512Mi")
                .budgetHugepages("1Gi", "2Gi")
                .build();
        assertThat(PodRules.memoryBudget(p))
                .containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of(
                        MemoryResource.MEMORY,
                        MemoryQuantity.parseBytes("8Gi"),
                        MemoryResource.parse("hugepages-2Mi"),
                        MemoryQuantity.parseBytes("512Mi"),
                        MemoryResource.parse("hugepages-1Gi"),
                        MemoryQuantity.parseBytes("2Gi"))));
        assertThat(PodRules.memoryBudget(pod("q").app("a", "1", "1Gi").build())).isEmpty();
    }

    static Stream<Arguments> containerCases() {
        Resources reqBelowLimit = new Resources(list("1", "1Gi"), list("2", "1Gi"));
        return Stream.of(
                Arguments.of("guaranteed pod, whole cpu", "4", "4Gi", guaranteed("2", "1Gi"), 2, true),
                Arguments.of("fractional cpu: memory only", "4", "4Gi", guaranteed("1500m", "1Gi"), 0, true),
                Arguments.of("no memory of its own", "4", "4Gi", guaranteed("2", null), 0, false),
                Arguments.of("request below limit", "4", "4Gi", reqBelowLimit, 0, false),
                Arguments.of("no resources", "4", "4Gi", Resources.NONE, 0, false),
                Arguments.of("zero cpu", "4", "4Gi", guaranteed("0", "1Gi"), 0, false),
                Arguments.of("burstable pod", null, null, guaranteed("2", "1Gi"), 0, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("containerCases")
    void exclusivity(String name, String budgetCpu, String budgetMem, Resources container, int cpus, boolean memory) {
        TestPods.Builder b = pod("p").app("c", container);
        if (budgetCpu != null) {
            b.budget(budgetCpu, budgetMem);
        } else {
            b.budget(new Resources(list("1", "1Gi"), list("4", "4Gi")));
        }
        Pod p = b.build();
        Container c = p.appContainers().get(0);
        assertThat(PodRules.exclusiveCpus(p, c)).isEqualTo(cpus);
        assertThat(PodRules.exclusiveMemory(p, c)).isEqualTo(memory);
    }

    @Test
    void classicGuaranteedPodsQualifyPerContainerAndEphemeralNever() {
        Pod p = pod("p").app("a", "2", "1Gi").app("b", "500m", "1Gi").build();
        assertThat(PodRules.exclusiveCpus(p, p.appContainers().get(0))).isEqualTo(2);
        assertThat(PodRules.exclusiveCpus(p, p.appContainers().get(1))).isZero();
        assertThat(PodRules.exclusiveMemory(p, p.appContainers().get(1))).isTrue();
        Container dbg = new Container("dbg", ContainerType.EPHEMERAL, guaranteed("1", "1Gi"));
        Pod withDbg = new Pod(p.ref(), Optional.empty(), p.initContainers(), p.appContainers(), java.util.List.of(dbg));
        assertThat(PodRules.exclusiveCpus(withDbg, dbg)).isZero();
        assertThat(PodRules.exclusiveMemory(withDbg, dbg)).isFalse();
    }

    @Test
    void cpuQuantities() {
        assertThat(CpuQuantity.parseMillis("cpu", "2")).isEqualTo(2000);
        assertThat(CpuQuantity.parseMillis("cpu", "500m")).isEqualTo(500);
        assertThat(CpuQuantity.parseMillis("cpu", "1.5")).isEqualTo(1500);
        assertThat(CpuQuantity.parseMillis("cpu", "0.0001"))
                .as("rounds up like the API server")
                .isEqualTo(1);
        assertThat(CpuQuantity.format(2000)).isEqualTo("2");
        assertThat(CpuQuantity.format(1500)).isEqualTo("1500m");
        assertThatThrownBy(() -> CpuQuantity.parseMillis("spec.containers[a].resources.limits.cpu", "two"))
                .hasMessage("spec.containers[a].resources.limits.cpu \"two\" is not a valid CPU quantity: use whole or"
                        + " decimal cores (2, 1.5) or millicores (500m)");
        assertThatThrownBy(() -> CpuQuantity.parseMillis("cpu", "-1")).hasMessageContaining("cannot be negative");
    }

    @Test
    void podsRefuseDuplicateNamesAndMisplacedTypes() {
        assertThatThrownBy(() ->
                        pod("p").app("a", null, null).sidecar("a", null, null).build())
                .hasMessageContaining("container name a is used twice");
        PodRef ref = new PodRef("u", "ns", "p");
        Container app = new Container("x", ContainerType.APP, Resources.NONE);
        assertThatThrownBy(() -> new Pod(
                        ref, Optional.empty(), java.util.List.of(app), java.util.List.of(), java.util.List.of()))
                .hasMessageContaining("container x of type APP is in the init list");
    }
}
