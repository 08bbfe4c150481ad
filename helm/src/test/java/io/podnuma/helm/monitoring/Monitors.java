package io.podnuma.helm.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.podnuma.helm.ChartFiles;
import io.podnuma.helm.Rendered;
import java.util.List;

/** The monitoring objects of a render: the Prometheus Operator's kinds as trees, the operator's settings file. */
final class Monitors {

    static final String RELEASE_PREFIX = "r-podnuma";
    static final String OPERATOR = RELEASE_PREFIX + "-operator";
    static final String AGENT = RELEASE_PREFIX + "-agent";
    static final String NAMESPACE = "podnuma-system";

    private Monitors() {}

    /** Every rendered object of {@code kind} (ServiceMonitor, PodMonitor, PrometheusRule), as a JSON tree. */
    static List<JsonNode> all(Rendered r, String kind) {
        return r.all(GenericKubernetesResource.class).stream()
                .filter(o -> kind.equals(o.getKind()))
                .map(o -> (JsonNode) ChartFiles.JSON.valueToTree(o))
                .toList();
    }

    /** The one object of {@code kind}; fails naming what was rendered. */
    static JsonNode one(Rendered r, String kind) {
        List<JsonNode> found = all(r, kind);
        if (found.size() != 1) {
            throw new AssertionError(
                    "expected one " + kind + ", found " + found.size() + " among " + r.kindsAndNames());
        }
        return found.getFirst();
    }

    /** The operator's settings file ({@code operator.yaml} of its ConfigMap). */
    static JsonNode settings(Rendered r) {
        return ChartFiles.yaml(r.get(ConfigMap.class, OPERATOR).getData().get("operator.yaml"));
    }
}
