package io.podnuma.bench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class NodePaddingTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00.123Z");
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private static Node node(int index) {
        return NodePadding.node("scale-node-" + index, index, Map.of("podnuma.bench/pool", "p" + index % 50), NOW);
    }

    @Test
    void aNodeIsAsBigAsARealOne() {
        double average = IntStream.range(0, 200)
                .mapToObj(NodePaddingTest::node)
                .mapToInt(n -> JSON.asJson(n).length())
                .average()
                .orElseThrow();
        assertThat(average).isBetween(10_000.0, 15_000.0);
    }

    @Test
    void itCarriesWhatAKubeletReports() {
        Node n = node(7);
        assertThat(n.getStatus().getImages()).hasSize(NodePadding.IMAGES);
        assertThat(n.getStatus().getImages()).allMatch(i -> i.getSizeBytes() >= 5_000_000L);
        assertThat(n.getStatus().getImages().getFirst().getNames().getFirst()).contains("@sha256:");
        assertThat(n.getMetadata().getLabels())
                .hasSizeBetween(14, 16)
                .containsEntry("podnuma.bench/pool", "p7")
                .containsEntry("kubernetes.io/hostname", "scale-node-7")
                .doesNotContainKey("podnuma.io/policy");
        assertThat(n.getStatus().getConditions())
                .extracting(c -> c.getType() + "=" + c.getStatus())
                .containsExactly(
                        "MemoryPressure=False",
                        "DiskPressure=False",
                        "PIDPressure=False",
                        "Ready=True",
                        "NetworkUnavailable=False");
        assertThat(n.getStatus().getConditions().getFirst().getLastHeartbeatTime())
                .isEqualTo("2026-12-01T10:00:00Z");
        assertThat(n.getStatus().getCapacity()).containsKeys("cpu", "memory", "pods", "hugepages-2Mi");
        assertThat(n.getStatus().getAllocatable().get("cpu").toString()).isEqualTo("31850m");
    }

    @Test
    void theSameIndexGivesTheSameNodeAndAnotherIndexAnother() {
        assertThat(JSON.asJson(node(42))).isEqualTo(JSON.asJson(node(42)));
        assertThat(node(42).getStatus().getNodeInfo().getMachineID())
                .isNotEqualTo(node(43).getStatus().getNodeInfo().getMachineID());
        assertThat(node(42).getStatus().getImages().getFirst().getNames())
                .isNotEqualTo(node(43).getStatus().getImages().getFirst().getNames());
    }
}
