package io.podnuma.operator.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podnuma.operator.assign.LabelChange;
import io.podnuma.operator.assign.NodeCandidate;
import io.podnuma.operator.reconcile.NodeLabels;
import java.util.HashMap;
import java.util.Map;

/**
 * The label by JSON merge patch: it sets or removes exactly the one key whoever set it before (a server-side apply
 * could not remove a label another manager wrote).
 */
public final class KubeNodeLabels implements NodeLabels {

    private static final PatchContext MERGE = new PatchContext.Builder()
            .withPatchType(PatchType.JSON_MERGE)
            .withFieldManager(FieldManager.NAME)
            .build();

    private final KubernetesClient client;

    public KubeNodeLabels(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public void write(LabelChange change) {
        Map<String, Object> labels = new HashMap<>();
        labels.put(NodeCandidate.POLICY_LABEL, change.to().orElse(null));
        String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("labels", labels)));
        try {
            client.nodes().withName(change.node()).patch(MERGE, patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }
}
