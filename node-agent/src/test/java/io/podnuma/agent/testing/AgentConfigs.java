package io.podnuma.agent.testing;

import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.config.AgentConfigLoader;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import java.util.Map;

/**
 * A {@link NodeAgentConfig} (built with the test kit's {@code SampleConfigs}) as the agent reads it from its file, for
 * tests that run the agent in this JVM.
 */
public final class AgentConfigs {

    private AgentConfigs() {}

    /** The config as the agent reads it from its file: written, then parsed with no flags and no environment. */
    public static AgentConfig load(NodeAgentConfig config) {
        return AgentConfigLoader.parse(NodeAgentConfigYaml.write(config), "agent.yaml", Map.of(), Map.of());
    }
}
