package io.podnuma.agent.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.machine.NumaNode;
import io.podnuma.agent.engine.machine.TestTopologies;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyFingerprintTest {

    private static CpuTopology machine(CpuSet offline) {
        return TestTopologies.build(16, c -> c % 8, c -> (c % 8) / 4, c -> (c % 8) / 4, c -> (c % 8) / 4, offline);
    }

    @Test
    void theSameMachineGivesTheSameFingerprint() {
        assertThat(TopologyFingerprint.of(machine(CpuSet.empty())))
                .isEqualTo(TopologyFingerprint.of(machine(CpuSet.empty())));
        assertThat(TopologyFingerprint.of(machine(CpuSet.empty())).value()).matches("sha256:[0-9a-f]{64}");
    }

    @Test
    void anOfflineCpuAnotherNumaLayoutOrAnotherL3LayoutChangesIt() {
        TopologyFingerprint base = TopologyFingerprint.of(machine(CpuSet.empty()));
        assertThat(TopologyFingerprint.of(machine(CpuSet.of(15)))).isNotEqualTo(base);
        assertThat(TopologyFingerprint.of(
                        TestTopologies.build(16, c -> c % 8, c -> (c % 8) / 4, c -> (c % 8) / 2, c -> (c % 8) / 4)))
                .as("sub-NUMA clustering turned on")
                .isNotEqualTo(base);
        assertThat(TopologyFingerprint.of(
                        TestTopologies.build(16, c -> c % 8, c -> (c % 8) / 4, c -> (c % 8) / 4, c -> (c % 8) / 2)))
                .as("L3 groups")
                .isNotEqualTo(base);
    }

    @Test
    void memoryAndHugepageSizesDoNotChangeIt() {
        CpuTopology m = machine(CpuSet.empty());
        List<NumaNode> resized = m.numaNodes().stream()
                .map(n -> new NumaNode(n.id(), n.cpus(), n.memoryBytes() - 4096, Map.of(2048L, 512L), n.distances()))
                .toList();
        assertThat(TopologyFingerprint.of(new CpuTopology(m.cpus(), m.offlineCpus(), resized)))
                .isEqualTo(TopologyFingerprint.of(m));
    }

    @Test
    void aValueThatIsNotASha256IsRefused() {
        assertThatThrownBy(() -> new TopologyFingerprint("md5:abc"))
                .hasMessage("topology fingerprint \"md5:abc\" must be sha256: followed by 64 lowercase hex digits");
    }
}
