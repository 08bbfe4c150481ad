package io.podnuma.agent.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.agent.engine.cpu.ReservedCpus;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryQuantity;
import io.podnuma.agent.engine.memory.MemoryResource;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NodeConfigMapperTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static NodeConfigMapper.Mapped map(String spec) throws Exception {
        String yaml = "apiVersion: podnuma.io/v1alpha1\nkind: NumaResourcePolicy\nmetadata: {name: t}\nspec:\n" + spec;
        return NodeConfigMapper.map(
                YAML.readValue(yaml, NumaResourcePolicy.class).getSpec());
    }

    @Test
    void mapsEveryManagerAndTheBudgetAnnotation() throws Exception {
        var m = map("""
                  nodeSelector: {}
                  topologyManager: {policy: single-numa-node, scope: pod, options: {maxAllowableNumaNodes: 16}}
                  cpuManager: {policy: static, reservedCpus: "0,64", options: {fullPcpusOnly: true, strictCpuReservation: true}}
                  memoryManager:
                    policy: Static
                    reservedMemory: [{numaNode: 0, limits: {memory: 1Gi, hugepages-2Mi: 4Mi}}]
                  podLevelResources: {enabled: true, budgetAnnotation: podnuma.io/pod-resources}
                """);
        NodeConfig c = m.config();
        assertThat(c.topologyPolicy()).isEqualTo(TopologyPolicyName.SINGLE_NUMA_NODE);
        assertThat(c.topologyScope()).isEqualTo(NodeConfig.TopologyScope.POD);
        assertThat(c.topologyOptions().maxAllowableNumaNodes()).isEqualTo(16);
        assertThat(c.cpuPolicy()).isEqualTo(NodeConfig.CpuPolicy.STATIC);
        assertThat(c.reservedCpus()).isEqualTo(ReservedCpus.explicit(CpuSet.of(0, 64)));
        assertThat(c.cpuOptions().fullPcpusOnly()).isTrue();
        assertThat(c.cpuOptions().strictCpuReservation()).isTrue();
        assertThat(c.cpuOptions().alignBySocket()).isFalse();
        assertThat(c.memoryPolicy()).isEqualTo(NodeConfig.MemoryPolicy.STATIC);
        assertThat(c.reservedMemory().reserved(0, MemoryResource.MEMORY)).isEqualTo(MemoryQuantity.parseBytes("1Gi"));
        assertThat(c.reservedMemory().reserved(0, MemoryResource.parse("hugepages-2Mi")))
                .isEqualTo(MemoryQuantity.parseBytes("4Mi"));
        assertThat(c.podLevelResources()).isTrue();
        assertThat(m.budgetAnnotation()).isEqualTo("podnuma.io/pod-resources");
    }

    @Test
    void defaultsAreTheKubeletDefaults() throws Exception {
        NodeConfig c = map("  nodeSelector: {}\n").config();
        assertThat(c.cpuPolicy()).isEqualTo(NodeConfig.CpuPolicy.NONE);
        assertThat(c.memoryPolicy()).isEqualTo(NodeConfig.MemoryPolicy.NONE);
        assertThat(c.topologyPolicy()).isEqualTo(TopologyPolicyName.NONE);
        assertThat(c.topologyScope()).isEqualTo(NodeConfig.TopologyScope.CONTAINER);
        assertThat(c.podLevelResources()).isTrue();
        assertThat(map("  nodeSelector: {}\n  cpuManager: {policy: static, reservedCpuCount: 2}\n")
                        .config()
                        .reservedCpus())
                .isEqualTo(ReservedCpus.count(2));
    }

    @Test
    void badValuesNameTheSpecField() {
        assertThatThrownBy(() -> map("  nodeSelector: {}\n  cpuManager: {policy: static, reservedCpus: \"3-1\"}\n"))
                .hasMessageStartingWith("spec.cpuManager.reservedCpus \"3-1\": ");
        assertThatThrownBy(() -> map("  nodeSelector: {}\n  cpuManager: {policy: static}\n"))
                .hasMessage("spec.cpuManager.reservedCpus is missing: policy static needs CPUs reserved for the"
                        + " system, set reservedCpus (e.g. \"0,64\") or reservedCpuCount (e.g. 2)");
        assertThatThrownBy(() -> map("  nodeSelector: {}\n  priority: 1001\n  cpuManager: {reservedCpuCount: 0}\n"))
                .as("every problem of the spec, in one message")
                .hasMessage("spec.priority 1001: allowed 0 to 1000; spec.cpuManager.reservedCpuCount 0: allowed 1 to"
                        + " 8192");
    }

    @Test
    void everyCrdExampleMaps() throws Exception {
        for (String name :
                new String[] {"minimal", "full-options", "memory-static", "pod-scope-hybrid", "annotation-budget"}) {
            Path p = Path.of("../crds/examples/" + name + ".yaml");
            NumaResourcePolicy policy = YAML.readValue(p.toFile(), NumaResourcePolicy.class);
            assertThat(NodeConfigMapper.map(policy.getSpec()).config()).as(name).isNotNull();
        }
    }
}
