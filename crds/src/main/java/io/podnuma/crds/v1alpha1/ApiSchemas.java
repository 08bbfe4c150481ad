package io.podnuma.crds.v1alpha1;

/**
 * JSON merge patches applied to generated schemas where annotations cannot say it: list types and map keys, and the
 * required fields of the standard {@code metav1.Condition}, whose {@code type} keys the conditions list.
 */
final class ApiSchemas {

    static final String CONDITIONS = "\"conditions\":{\"x-kubernetes-list-type\":\"map\","
            + "\"x-kubernetes-list-map-keys\":[\"type\"],"
            + "\"items\":{\"required\":[\"type\",\"status\",\"lastTransitionTime\",\"reason\",\"message\"],"
            + "\"properties\":{\"status\":{\"enum\":[\"True\",\"False\",\"Unknown\"]},"
            + "\"lastTransitionTime\":{\"format\":\"date-time\"},"
            + "\"type\":{\"maxLength\":316},\"reason\":{\"maxLength\":1024},\"message\":{\"maxLength\":32768}}}}";

    static final String STATUS_LISTS = "{\"properties\":{" + CONDITIONS + ","
            + "\"failingNodes\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"node\"]}}}";

    static final String NODE_STATE_STATUS_LISTS = "{\"properties\":{" + CONDITIONS + ","
            + "\"allocations\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"uid\"]}}}";

    private ApiSchemas() {}
}
