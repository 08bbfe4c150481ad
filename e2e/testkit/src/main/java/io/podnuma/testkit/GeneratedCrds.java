package io.podnuma.testkit;

import java.nio.file.Path;

/**
 * The CRD files the tests install with {@code ControlPlane.installCrds}: podnuma's own, committed as the crds module
 * generates them (the chart ships the same files), and a test copy of NodeResourceTopology.
 */
public final class GeneratedCrds {

    private GeneratedCrds() {}

    /** {@code numanodestates.podnuma.io}, written by each node's agent. */
    public static Path numaNodeStates() {
        return Repository.resolve("crds/generated/numanodestates.podnuma.io-v1.yml");
    }

    /** {@code numaresourcepolicies.podnuma.io}, the user's policy. */
    public static Path numaResourcePolicies() {
        return Repository.resolve("crds/generated/numaresourcepolicies.podnuma.io-v1.yml");
    }

    /**
     * {@code noderesourcetopologies.topology.node.k8s.io}: our own test copy (the scheduler plugins' project ships
     * the real one), kept with the agent's NRT tests.
     */
    public static Path nodeResourceTopologies() {
        return Repository.resolve(
                "node-agent/src/test/resources/io/podnuma/agent/report/nrt/noderesourcetopologies.topology.node.k8s.io.yaml");
    }
}
