package io.podnuma.testkit.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SamplePodsTest {

    @Test
    void aBudgetedPodHasAPodLevelBudgetAndTwoContainersWithoutResources() {
        Pod p = SamplePods.budgeted("n1", "trader", 2);
        assertThat(p.getSpec().getNodeName()).isEqualTo("n1");
        assertThat(p.getMetadata().getName()).isEqualTo("trader");
        assertThat(p.getSpec().getResources().getRequests())
                .isEqualTo(p.getSpec().getResources().getLimits())
                .isEqualTo(Map.of("cpu", new Quantity("2"), "memory", new Quantity("256Mi")));
        assertThat(p.getSpec().getInitContainers()).singleElement().satisfies(c -> {
            assertThat(c.getName()).isEqualTo("proxy");
            assertThat(c.getRestartPolicy()).isEqualTo("Always");
        });
        assertThat(p.getSpec().getContainers()).extracting(Container::getName).containsExactly("engine");
        assertThat(p.getSpec().getContainers().getFirst().getResources()).isNull();
        assertThat(SamplePods.budgeted("n1", "t").getSpec().getResources().getLimits())
                .containsEntry("cpu", new Quantity("1"));
    }

    @Test
    void aContainerAsksForDevicesByItsLimitAndTheOriginalIsLeftAsItWas() {
        Pod budgeted = SamplePods.budgeted("n1", "infer", 2);
        Pod asking = SamplePods.withDevices(budgeted, "engine", "example.com/accel", 1);
        assertThat(asking.getSpec().getContainers().getFirst().getResources().getLimits())
                .isEqualTo(Map.of("example.com/accel", new Quantity("1")));
        assertThat(asking.getSpec().getResources()).isEqualTo(budgeted.getSpec().getResources());
        assertThat(budgeted.getSpec().getContainers().getFirst().getResources()).isNull();
        assertThatThrownBy(() -> SamplePods.withDevices(budgeted, "proxy", "example.com/accel", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pod infer has no app container proxy");
    }

    @Test
    void burstableAsksForMemoryWithoutALimitAndBestEffortForNothing() {
        Container web =
                SamplePods.burstable("n1", "web").getSpec().getContainers().getFirst();
        assertThat(web.getResources().getRequests()).isEqualTo(Map.of("memory", new Quantity("64Mi")));
        assertThat(web.getResources().getLimits()).isNullOrEmpty();
        assertThat(SamplePods.bestEffort("n1", "b")
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getResources())
                .isNull();
        assertThat(SamplePods.inNamespace("ns", SamplePods.burstable("n1", "web"))
                        .getMetadata()
                        .getNamespace())
                .isEqualTo("ns");
    }

    @Test
    void theBenchNodeHasOnePinnedPodFirstAndTheRestOnTheSharedPool() {
        List<Pod> pods = SamplePods.benchNode("n1", 3, 2);
        assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactly("pinned-0", "shared-1", "shared-2");
        assertThat(pods).allSatisfy(p -> {
            assertThat(p.getMetadata().getLabels()).containsEntry(SamplePods.BENCH_LABEL, "true");
            assertThat(p.getSpec().getContainers())
                    .extracting(Container::getName)
                    .containsExactly("c0", "c1");
        });
        assertThat(SamplePods.isBenchPinned(pods.get(0))).isTrue();
        assertThat(SamplePods.isBenchPinned(pods.get(1))).isFalse();
        assertThat(pods.get(0).getSpec().getResources().getLimits()).containsEntry("cpu", new Quantity("1"));
        assertThat(pods.get(1)
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getResources()
                        .getRequests())
                .isEqualTo(Map.of("cpu", new Quantity("10m"), "memory", new Quantity("8Mi")));
        assertThatThrownBy(() -> SamplePods.benchNode("n1", 0, 1)).hasMessageContaining("at least one");
    }
}
