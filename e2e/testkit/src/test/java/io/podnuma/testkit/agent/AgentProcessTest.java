package io.podnuma.testkit.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the launcher writes and where it looks, without starting an agent. */
class AgentProcessTest {

    @TempDir
    Path dir;

    @Test
    void theConfigFileIsTheTestsConfigWithTheAgentsOwnPlacement() throws Exception {
        NodeAgentConfig config = SampleConfigs.podScope("n1", SampleConfigs.reservedCpus("0"))
                .policyName("p1")
                .stateDir("/var/lib/podnuma")
                .metricsPort(9100)
                .build();
        AgentProcess agent = AgentProcess.withConfig(dir.resolve("a"), config, dir.resolve("kubeconfig"));
        AgentPlacement p = agent.placement();

        NodeAgentConfig written = NodeAgentConfigYaml.read(agent.configFile());
        assertThat(written)
                .isEqualTo(config.toBuilder()
                        .stateDir(dir.resolve("a/state").toString())
                        .podResourcesSocket(dir.resolve("a/podnuma.sock").toString())
                        .metricsBindAddress("127.0.0.1")
                        .metricsPort(p.metricsPort())
                        .healthBindAddress("127.0.0.1")
                        .healthPort(p.healthPort())
                        .build());
        assertThat(p.metricsPort()).isNotEqualTo(p.healthPort()).isNotEqualTo(9100);
        assertThat(agent.checkpoint()).isEqualTo(dir.resolve("a/state/node-state.json"));
        assertThat(agent.isAlive()).isFalse();
        assertThat(agent.logTail()).isEqualTo("(no log)");
    }

    @Test
    void aMissingCliJarIsNamedWithWhereItLooked() {
        String old = System.getProperty(AgentCliJar.PROPERTY);
        System.setProperty(AgentCliJar.PROPERTY, dir.resolve("nope.jar").toString());
        try {
            assertThatThrownBy(AgentCliJar::locate)
                    .hasMessageContaining(AgentCliJar.PROPERTY)
                    .hasMessageContaining("nope.jar");
        } finally {
            if (old == null) {
                System.clearProperty(AgentCliJar.PROPERTY);
            } else {
                System.setProperty(AgentCliJar.PROPERTY, old);
            }
        }
    }
}
