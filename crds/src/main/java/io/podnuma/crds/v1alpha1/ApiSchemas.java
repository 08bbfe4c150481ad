package io.podnuma.crds.v1alpha1;

/**
 * JSON merge patches applied to generated schemas where annotations cannot say it: list types and map keys, the
 * required fields of the standard {@code metav1.Condition}, whose {@code type} keys the conditions list, and the
 * descriptions {@code kubectl explain} shows for fields of upstream types (conditions, the label selector). Also the
 * printer columns both kinds share, so READY and AGE mean the same in {@code kubectl get nrp} and {@code nns}.
 */
final class ApiSchemas {

    static final String READY_COLUMN = "Ready";
    static final String READY_PATH = ".status.conditions[?(@.type==\"Ready\")].status";
    /** The last sentence of both kinds' conditions description: READY means the same in both. */
    static final String READY_MEANING = " The READY column of kubectl get is the status of the Ready condition: True"
            + " when the pins the object describes are in force (a policy: on every node it governs; a node state: on"
            + " its node), False with the reason in the condition, empty before the first report.";

    static final String AGE_COLUMN = "Age";
    static final String AGE_PATH = ".metadata.creationTimestamp";

    static final String CONDITIONS = "\"conditions\":{\"x-kubernetes-list-type\":\"map\","
            + "\"x-kubernetes-list-map-keys\":[\"type\"],"
            + "\"items\":{\"required\":[\"type\",\"status\",\"lastTransitionTime\",\"reason\",\"message\"],"
            + "\"properties\":{"
            + "\"status\":{\"enum\":[\"True\",\"False\",\"Unknown\"],"
            + "\"description\":\"Whether the condition holds: True, False or Unknown.\"},"
            + "\"lastTransitionTime\":{\"format\":\"date-time\","
            + "\"description\":\"When status last changed (RFC 3339); a new reason or message alone keeps it.\"},"
            + "\"type\":{\"maxLength\":316,"
            + "\"description\":\"Which condition this is (Ready, ...); each type appears once in the list.\"},"
            + "\"reason\":{\"maxLength\":1024,"
            + "\"description\":\"Why the condition has its status, one CamelCase word for programs and alerts"
            + " (e.g. AllNodesReady, NodesNotReady).\"},"
            + "\"message\":{\"maxLength\":32768,"
            + "\"description\":\"The reason for people: what is wrong and, where it helps, what to do.\"},"
            + "\"observedGeneration\":{"
            + "\"description\":\"The metadata.generation the condition was computed from; lower than the object's"
            + " generation means the condition may be stale.\"}}}}";

    static final String STATUS_LISTS = "{\"properties\":{" + CONDITIONS + ","
            + "\"failingNodes\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"node\"]}}}";

    static final String NODE_STATE_STATUS_LISTS = "{\"properties\":{" + CONDITIONS + ","
            + "\"allocations\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"uid\"]}}}";

    private ApiSchemas() {}
}
