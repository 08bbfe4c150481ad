package io.podnuma.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.config.AgentConfigLoader;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The shared test configuration is a file the agent accepts, with the extra lines where they belong. */
class AgentConfigsTest {

    @Test
    void extraLinesLandAtTopLevelAndInThePolicy() {
        String yaml = AgentConfigs.podScope(
                "n1",
                "reservedCpus: \"0\"",
                List.of("policyName: p1", "reconcilePeriod: 3s"),
                List.of("exportNodeResourceTopology: true"));
        AgentConfig config = AgentConfigLoader.parse(yaml, "agent.yaml", Map.of(), Map.of());

        assertThat(config.nodeName()).isEqualTo("n1");
        assertThat(config.policyName()).isEqualTo(Optional.of("p1"));
        assertThat(config.reconcilePeriod()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.policy().exportNodeResourceTopology()).isTrue();
        assertThat(config.nodeConfig().topologyPolicy()).isEqualTo(TopologyPolicyName.SINGLE_NUMA_NODE);
        assertThat(config.nodeConfig().topologyScope()).isEqualTo(NodeConfig.TopologyScope.POD);
        assertThat(config.nodeConfig().podLevelResources()).isTrue();
    }
}
