package io.podnuma.agent.hosttest;

import io.podnuma.controlplane.ControlPlane;
import java.nio.file.Path;

/** The CRDs the agent writes, installed on the test control plane and waited for. */
public final class AgentCrds {

    /** The committed, generated CRD (the chart ships the same file). */
    public static final Path NUMA_NODE_STATE = Path.of("../crds/generated/numanodestates.podnuma.io-v1.yml");

    /** Our own test copy of the NodeResourceTopology CRD (the scheduler plugin's project ships the real one). */
    public static final Path NODE_RESOURCE_TOPOLOGY =
            Path.of("src/test/resources/io/podnuma/agent/report/nrt/noderesourcetopologies.topology.node.k8s.io.yaml");

    private AgentCrds() {}

    public static void installNumaNodeState(ControlPlane cp) {
        install(cp, NUMA_NODE_STATE, "crd/numanodestates.podnuma.io");
    }

    public static void installNodeResourceTopology(ControlPlane cp) {
        install(cp, NODE_RESOURCE_TOPOLOGY, "crd/noderesourcetopologies.topology.node.k8s.io");
    }

    private static void install(ControlPlane cp, Path file, String name) {
        cp.kubectl(
                        "apply",
                        "--server-side",
                        "--force-conflicts",
                        "-f",
                        file.toAbsolutePath().toString())
                .assertSuccess();
        cp.kubectl("wait", "--for=condition=Established", name, "--timeout=60s").assertSuccess();
    }
}
