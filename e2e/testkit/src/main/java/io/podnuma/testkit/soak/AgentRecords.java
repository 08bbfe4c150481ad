package io.podnuma.testkit.soak;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.ManagedChannel;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The agent's records besides its checkpoint, as the soaks read them: the node's {@code NumaNodeState} allocations
 * and the PodResources {@code List} of the agent's socket; and the after-convergence check that every live pod the
 * checkpoint holds is in each.
 */
public final class AgentRecords {

    private AgentRecords() {}

    /** The allocations of node {@code node}'s NumaNodeState; empty when the object, its status or the list is absent. */
    public static List<PodAllocation> allocations(KubernetesClient client, String node) {
        NumaNodeState nns = client.resources(NumaNodeState.class).withName(node).get();
        return nns == null || nns.getStatus() == null || nns.getStatus().allocations() == null
                ? List.of()
                : nns.getStatus().allocations();
    }

    /** {@code namespace/name} of every pod the NumaNodeState of {@code node} holds an allocation for. */
    public static Set<String> numaNodeStatePods(KubernetesClient client, String node) {
        Set<String> out = new TreeSet<>();
        allocations(client, node).forEach(a -> out.add(a.namespace() + "/" + a.name()));
        return out;
    }

    /** {@code namespace/name} of every pod the agent's PodResources {@code List} on {@code socket} answers with. */
    public static Set<String> podResourcesPods(Path socket) {
        Set<String> out = new TreeSet<>();
        podResources(socket).forEach(r -> out.add(r.getNamespace() + "/" + r.getName()));
        return out;
    }

    /** The agent's PodResources {@code List} answer on {@code socket}. */
    public static List<PodResources> podResources(Path socket) {
        ManagedChannel channel = DomainSocketChannels.open(socket);
        try {
            // Generous: on a loaded host (three modules' tests at once) a JVM can stall seconds between setting the
            // deadline and starting the call, and a slow answer is not a lost allocation.
            return PodResourcesListerGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(20, TimeUnit.SECONDS)
                    .list(ListPodResourcesRequest.getDefaultInstance())
                    .getPodResourcesList();
        } finally {
            channel.shutdownNow();
        }
    }

    /**
     * "No allocation lost" once a fault converged: every live pod of {@code checkpoint} (UID → {@code namespace/name})
     * is in the NumaNodeState and PodResources answers ({@code namespace/name} each).
     */
    public static List<Violation> lostAfterConvergence(
            Map<String, String> checkpoint, Set<String> numaNodeState, Set<String> podResources, Set<String> livePods) {
        Snapshot s = new Snapshot(
                Instant.now(),
                List.of(),
                Map.of(),
                Optional.empty(),
                livePods,
                Map.of(
                        Record.CHECKPOINT,
                        checkpoint.keySet(),
                        Record.NUMA_NODE_STATE,
                        uids(checkpoint, numaNodeState),
                        Record.POD_RESOURCES,
                        uids(checkpoint, podResources)),
                checkpoint.keySet());
        return Invariants.allocationsLost(s);
    }

    /**
     * {@code look} (a fresh {@link #lostAfterConvergence} of the records as they are now) asked again until it finds
     * nothing or {@code grace} has passed; what it finds then. The records are written one after the other (the
     * checkpoint, then NumaNodeState through its asynchronous writer), so a look between two writes (a checkpoint
     * catching up after failed writes, say) sees one ahead of the other: a loss is one that lasts.
     */
    public static List<Violation> lastingLosses(Supplier<List<Violation>> look, Duration grace)
            throws InterruptedException {
        long until = System.nanoTime() + grace.toNanos();
        List<Violation> found = look.get();
        while (!found.isEmpty() && System.nanoTime() < until) {
            TimeUnit.MILLISECONDS.sleep(50);
            found = look.get();
        }
        return found;
    }

    /** The UIDs of the checkpoint's pods whose {@code namespace/name} is in {@code names}. */
    private static Set<String> uids(Map<String, String> checkpoint, Set<String> names) {
        Set<String> out = new TreeSet<>();
        checkpoint.forEach((uid, name) -> {
            if (names.contains(name)) {
                out.add(uid);
            }
        });
        return out;
    }
}
