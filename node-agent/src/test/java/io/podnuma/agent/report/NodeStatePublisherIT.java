package io.podnuma.agent.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.podnuma.agent.engine.state.NodeState;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import io.podnuma.testkit.GeneratedCrds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The node agent's NumaNodeState against the real kube-apiserver, with the committed CRD installed. */
@ExtendWith(ControlPlaneExtension.class)
class NodeStatePublisherIT {

    static final Path CRD = GeneratedCrds.numaNodeStates();

    @BeforeAll
    static void installCrd(ControlPlane cp) {
        assertThat(Files.isRegularFile(CRD))
                .as("committed CRD at %s", CRD.toAbsolutePath())
                .isTrue();
        cp.installCrds(CRD);
    }

    private static String newNode(ControlPlane cp, String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        return cp.ensureNode(name, Map.of(), Map.of("cpu", "12", "memory", "32Gi", "pods", "110"));
    }

    private static NumaNodeState stored(ControlPlane cp, String node) {
        return cp.client().resources(NumaNodeState.class).withName(node).get();
    }

    private static NumaNodeState rendered(String node, NodeState state) {
        return NodeStateRenderer.render(ReportFixtures.report(node, state));
    }

    @Test
    void writesOnceOwnedByTheNodeSkipsUnchangedStateAndIsCollectedWithTheNode(ControlPlane cp)
            throws InterruptedException {
        String node = newNode(cp, "nns-writer");
        String nodeUid = cp.client().nodes().withName(node).get().getMetadata().getUid();
        NodeStateWriter writer = new NodeStateWriter(cp.client(), node);

        // First state: one pod.
        NumaNodeState first = rendered(node, ReportFixtures.state(false));
        assertThat(writer.write(first)).isEqualTo(WriteOutcome.WRITTEN);

        NumaNodeState back = stored(cp, node);
        assertThat(back.getStatus()).isEqualTo(first.getStatus());
        assertThat(back.getSpec().nodeName()).isEqualTo(node);
        assertThat(back.getMetadata().getOwnerReferences())
                .singleElement()
                .extracting(OwnerReference::getKind, OwnerReference::getName, OwnerReference::getUid)
                .containsExactly("Node", node, nodeUid);
        assertThat(back.getMetadata().getManagedFields())
                .filteredOn(m -> m.getManager().equals(NodeStateWriter.FIELD_MANAGER))
                .extracting(ManagedFieldsEntry::getOperation, m -> String.valueOf(m.getSubresource()))
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("Apply", "null"),
                        org.assertj.core.groups.Tuple.tuple("Apply", "status"));
        assertThat(cp.kubectl("get", "nns", node).assertSuccess().stdout()).contains("tenant-a");

        // A changed state (a second pod) is written.
        NumaNodeState second = rendered(node, ReportFixtures.state(true));
        assertThat(writer.write(second)).isEqualTo(WriteOutcome.WRITTEN);
        NumaNodeState afterChange = stored(cp, node);
        assertThat(afterChange.getStatus()).isEqualTo(second.getStatus());
        assertThat(afterChange.getStatus().allocations()).hasSize(2);
        assertThat(afterChange.getMetadata().getResourceVersion())
                .isNotEqualTo(back.getMetadata().getResourceVersion());

        // The same state rendered again: no request, so the stored object does not move.
        assertThat(writer.write(rendered(node, ReportFixtures.state(true)))).isEqualTo(WriteOutcome.UNCHANGED);
        assertThat(stored(cp, node).getMetadata().getResourceVersion())
                .isEqualTo(afterChange.getMetadata().getResourceVersion());

        // Proof that "unchanged" really sends nothing: with the object deleted by hand it stays deleted ...
        cp.kubectl("delete", "nns", node, "--wait=true").assertSuccess();
        assertThat(writer.write(second)).isEqualTo(WriteOutcome.UNCHANGED);
        assertThat(stored(cp, node)).isNull();
        // ... until a changed state (or a resync that forgets the last write) recreates it, owner included.
        writer.forget();
        assertThat(writer.write(second)).isEqualTo(WriteOutcome.WRITTEN);
        assertThat(stored(cp, node).getMetadata().getOwnerReferences())
                .extracting(OwnerReference::getUid)
                .containsExactly(nodeUid);
        NumaNodeState third = rendered(node, ReportFixtures.state(false));
        cp.kubectl("delete", "nns", node, "--wait=true").assertSuccess();
        assertThat(writer.write(third)).as("recreated after a 404 on status").isEqualTo(WriteOutcome.WRITTEN);
        assertThat(stored(cp, node).getStatus()).isEqualTo(third.getStatus());

        // The garbage collector removes it with its Node.
        cp.startControllers();
        assertThat(cp.client().nodes().withName(node).delete()).isNotEmpty();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (stored(cp, node) != null && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }
        assertThat(stored(cp, node))
                .as("NumaNodeState after its Node was deleted")
                .isNull();
    }

    @Test
    void aBurstIsCoalescedIntoAtMostTwoWritesAndTheLatestStateWins(ControlPlane cp) throws InterruptedException {
        String node = newNode(cp, "nns-publisher");
        NodeStateWriter writer = new NodeStateWriter(cp.client(), node);
        NodeState state = ReportFixtures.state(true);
        NumaNodeState last = null;

        try (NodeStatePublisher publisher = new NodeStatePublisher(writer, Duration.ofSeconds(1))) {
            for (int i = 0; i < 30; i++) {
                NodeReport r = ReportFixtures.report(node, state);
                last = NodeStateRenderer.render(new NodeReport(
                        r.nodeName(),
                        r.topology(),
                        r.state(),
                        r.policyName(),
                        r.configHash(),
                        r.reservedCpus(),
                        r.conditions(),
                        Optional.of(
                                new AgentError(ReportFixtures.T0.toString(), "CgroupWriteFailed", "attempt " + i))));
                publisher.publish(last);
            }
            assertThat(publisher.awaitIdle(Duration.ofSeconds(30))).isTrue();

            assertThat(publisher.failures())
                    .as("failures, last: %s", publisher.lastFailure())
                    .isZero();
            assertThat(publisher.writes()).isBetween(1L, 2L);
            NumaNodeState stored = stored(cp, node);
            assertThat(stored.getStatus().lastError().message()).isEqualTo("attempt 29");
            assertThat(stored.getStatus()).isEqualTo(last.getStatus());
            String version = stored.getMetadata().getResourceVersion();
            long writes = publisher.writes();

            publisher.publish(last);
            assertThat(publisher.awaitIdle(Duration.ofSeconds(30))).isTrue();

            assertThat(publisher.unchanged()).isEqualTo(1);
            assertThat(publisher.writes()).isEqualTo(writes);
            assertThat(stored(cp, node).getMetadata().getResourceVersion()).isEqualTo(version);
        }
    }

    @Test
    void aMissingNodeIsAClearErrorAndNothingIsWritten(ControlPlane cp) {
        String node = "nns-no-such-node-" + UUID.randomUUID().toString().substring(0, 8);
        NodeStateWriter writer = new NodeStateWriter(cp.client(), node);

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> writer.write(rendered(node, ReportFixtures.state(false))))
                .isInstanceOf(NodeStateWriteException.class)
                .hasMessage("node " + node + " does not exist: its NumaNodeState is owned by the Node object and is"
                        + " written once the node is registered");
        assertThat(stored(cp, node)).isNull();
    }
}
