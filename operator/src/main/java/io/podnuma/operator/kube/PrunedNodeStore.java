package io.podnuma.operator.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The node informer's cache, keeping of each Node only what the operator reads: its name and labels (assignment and
 * the Node → policy mapping), taints, and what the informer itself needs (uid, resourceVersion). A real Node is
 * 10-15 KB of JSON, most of it the image list, conditions and node info; at 5,000 nodes the whole objects took more
 * than a 192 MiB heap (the scale bench, benchmarks/README.md), the pruned ones take a few MB.
 *
 * <p>The informer hands its event handlers the full new object and the pruned old one, so an update filter that
 * compares labels sees both. Whoever needs more of a node must read it from the API server.
 */
public final class PrunedNodeStore extends BasicItemStore<Node> {

    public PrunedNodeStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Node put(String key, Node node) {
        return super.put(key, prune(node));
    }

    /** A new Node with the kept fields of {@code node} (which is not changed). */
    public static Node prune(Node node) {
        ObjectMeta m = node.getMetadata();
        NodeBuilder pruned = new NodeBuilder()
                .withApiVersion(node.getApiVersion())
                .withKind(node.getKind())
                .withMetadata(new ObjectMetaBuilder()
                        .withName(m.getName())
                        .withUid(m.getUid())
                        .withResourceVersion(m.getResourceVersion())
                        .withGeneration(m.getGeneration())
                        .withCreationTimestamp(m.getCreationTimestamp())
                        .withDeletionTimestamp(m.getDeletionTimestamp())
                        .withLabels(m.getLabels())
                        .build());
        if (node.getSpec() != null && node.getSpec().getTaints() != null) {
            pruned.withNewSpec().withTaints(node.getSpec().getTaints()).endSpec();
        }
        return pruned.build();
    }
}
