package io.podnuma.agent.report.nrt;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Argument checks that need no API server (the client is never used); the writing itself is in the IT. */
class NodeResourceTopologyWriterTest {

    @Test
    void refusesAnotherNodesObjectAndANegativeRecheck() {
        try (KubernetesClient client = new KubernetesClientBuilder().build()) {
            NodeResourceTopologyWriter writer = new NodeResourceTopologyWriter(client, "worker-1");
            NodeResourceTopology other =
                    new NodeResourceTopology("worker-2", Optional.empty(), List.of("None"), List.of(), List.of());

            assertThatThrownBy(() -> writer.write(other))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("NodeResourceTopology worker-2 is not this node's: the writer for node worker-1"
                            + " writes only worker-1");
            assertThatThrownBy(
                            () -> new NodeResourceTopologyWriter(client, "worker-1", Duration.ofSeconds(-1), () -> 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("crdRecheck must be 0 or more, got PT-1S");
        }
    }
}
