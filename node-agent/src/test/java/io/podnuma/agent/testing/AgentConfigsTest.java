package io.podnuma.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.topology.TopologyPolicyName;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.testkit.agent.SampleConfigs;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The shared test configuration is a file the agent accepts, with the added keys where they belong. */
class AgentConfigsTest {

    @Test
    void addedKeysLandAtTopLevelAndInThePolicy() {
        NodeAgentConfig file = SampleConfigs.podScope("n1", SampleConfigs.reservedCpus("0"))
                .policyName("p1")
                .reconcilePeriod("3s")
                .policy(SampleConfigs.podScopePolicy(SampleConfigs.reservedCpus("0"), AdmissionAction.EVICT, true))
                .build();
        AgentConfig config = AgentConfigs.load(file);

        assertThat(config.nodeName()).isEqualTo("n1");
        assertThat(config.policyName()).isEqualTo(Optional.of("p1"));
        assertThat(config.reconcilePeriod()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.policy().exportNodeResourceTopology()).isTrue();
        assertThat(config.policy().admission()).isEqualTo(AdmissionAction.EVICT);
        assertThat(config.nodeConfig().topologyPolicy()).isEqualTo(TopologyPolicyName.SINGLE_NUMA_NODE);
        assertThat(config.nodeConfig().topologyScope()).isEqualTo(NodeConfig.TopologyScope.POD);
        assertThat(config.nodeConfig().podLevelResources()).isTrue();
        assertThat(config.nodeConfig().cpuPolicy()).isEqualTo(NodeConfig.CpuPolicy.STATIC);
        assertThat(config.policy()).isEqualTo(file.policy());
    }

    @Test
    void theDefaultsAreTheAgentsWhereTheTestSetsNothing() {
        AgentConfig config = AgentConfigs.load(
                SampleConfigs.podScope("n2", SampleConfigs.reservedCpuCount(2)).build());

        assertThat(config.policyName()).isEmpty();
        assertThat(config.reconcilePeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.policy().admission()).isEqualTo(AdmissionAction.WARN);
        assertThat(config.policy().exportNodeResourceTopology()).isFalse();
        assertThat(config.policy().cpuManager().reservedCpuCount()).isEqualTo(2);
    }

    @Test
    void theWrittenFileReadsBackToTheSameConfig() {
        NodeAgentConfig file = SampleConfigs.podScope("n3", SampleConfigs.reservedCpus("0,64"))
                .kubeletCgroupRoot("/podnuma-tests")
                .statusMinInterval("200ms")
                .build();
        assertThat(NodeAgentConfigYaml.read(NodeAgentConfigYaml.write(file))).isEqualTo(file);
    }
}
