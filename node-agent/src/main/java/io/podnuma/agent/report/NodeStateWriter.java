package io.podnuma.agent.report;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Objects;

/**
 * Writes one node's {@code NumaNodeState} by server-side apply under the field manager {@value #FIELD_MANAGER}: the
 * object itself (name, spec, owner reference to the Node, so the garbage collector removes it with the Node) once,
 * then the status through the status subresource. A rendering equal to the last one written makes no request.
 *
 * <p>Not thread-safe on its own; {@link NodeStatePublisher} calls it from one thread.
 */
public final class NodeStateWriter {

    public static final String FIELD_MANAGER = "podnuma-agent";

    private static final PatchContext APPLY = new PatchContext.Builder()
            .withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager(FIELD_MANAGER)
            // The agent is the only rightful writer of its node's object; taking fields back from a
            // hand edit is what it should do.
            .withForce(true)
            .build();

    private final KubernetesClient client;
    private final String nodeName;
    private String lastWritten;
    private boolean objectApplied;

    public NodeStateWriter(KubernetesClient client, String nodeName) {
        this.client = Objects.requireNonNull(client, "client");
        this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    }

    public WriteOutcome write(NumaNodeState desired) {
        String name = desired.getMetadata().getName();
        if (!nodeName.equals(name)) {
            throw new IllegalArgumentException("NumaNodeState " + name + " is not this node's: the writer for node "
                    + nodeName + " writes only " + nodeName);
        }
        String canonical = CanonicalForm.of(desired);
        if (canonical.equals(lastWritten)) {
            return WriteOutcome.UNCHANGED;
        }
        try {
            apply(desired);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND || !objectApplied) {
                throw failed(e);
            }
            // Deleted behind our back (by hand, or collected with a Node of the same name): create it again.
            objectApplied = false;
            try {
                apply(desired);
            } catch (KubernetesClientException again) {
                throw failed(again);
            }
        }
        lastWritten = canonical;
        return WriteOutcome.WRITTEN;
    }

    /** Makes the next write go to the server even if unchanged (e.g. after a periodic resync found it missing). */
    public void forget() {
        lastWritten = null;
        objectApplied = false;
    }

    private void apply(NumaNodeState desired) {
        if (!objectApplied) {
            NumaNodeState object = new NumaNodeState(nodeName);
            object.getMetadata().setOwnerReferences(List.of(ownerReference()));
            client.resource(object).patch(APPLY, object);
            objectApplied = true;
        }
        NumaNodeState status = new NumaNodeState(nodeName);
        status.setStatus(desired.getStatus());
        client.resource(status).subresource("status").patch(APPLY, status);
    }

    private OwnerReference ownerReference() {
        Node node = client.nodes().withName(nodeName).get();
        if (node == null) {
            throw new NodeStateWriteException("node " + nodeName + " does not exist: its NumaNodeState is owned by the"
                    + " Node object and is written once the node is registered");
        }
        return new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(nodeName)
                .withUid(node.getMetadata().getUid())
                .build();
    }

    private NodeStateWriteException failed(KubernetesClientException e) {
        return new NodeStateWriteException(
                "NumaNodeState " + nodeName + " could not be applied (HTTP " + e.getCode() + "): " + e.getMessage(), e);
    }
}
