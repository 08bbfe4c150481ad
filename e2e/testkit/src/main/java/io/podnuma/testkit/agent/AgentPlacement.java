package io.podnuma.testkit.agent;

import io.podnuma.crds.agent.v1alpha1.NodeAgentConfig;
import java.nio.file.Path;

/**
 * Where one agent process keeps its files and serves its endpoints, all inside its work directory and on loopback
 * ports of its own, so several agents (and tests) run side by side.
 */
public record AgentPlacement(Path stateDir, Path socket, int metricsPort, int healthPort) {

    /** The loopback address both endpoints bind. */
    public static final String BIND_ADDRESS = "127.0.0.1";

    /** The checkpoint file the agent keeps in its state directory. */
    public Path checkpoint() {
        return stateDir.resolve("node-state.json");
    }

    /** {@code config} with this placement: state directory, PodResources socket, both endpoints on loopback. */
    public NodeAgentConfig applyTo(NodeAgentConfig config) {
        return config.toBuilder()
                .stateDir(stateDir.toString())
                .podResourcesSocket(socket.toString())
                .metricsBindAddress(BIND_ADDRESS)
                .metricsPort(metricsPort)
                .healthBindAddress(BIND_ADDRESS)
                .healthPort(healthPort)
                .build();
    }
}
