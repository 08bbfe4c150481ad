package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/** Whether pod-level budgets (KEP-2837 {@code pod.spec.resources}) drive the KEP-5526 hybrid allocation. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
        value = "self.enabled || !has(self.budgetAnnotation)",
        message = "budgetAnnotation is only read when enabled is true",
        fieldPath = ".budgetAnnotation")
public record PodLevelResources(
        @JsonPropertyDescription("Honour pod.spec.resources: a Guaranteed pod with a whole-CPU pod budget gets one"
                + " aligned set of CPUs and memory, shared by its containers, with exclusive slices for"
                + " containers that qualify on their own. When false, pods are handled container by container"
                + " as before Kubernetes v1.37. Defaults to true.")
        @Default("true")
        Boolean enabled,

        @JsonPropertyDescription("For clusters whose API server lacks pod.spec.resources: the name of a pod annotation"
                + " (e.g. podnuma.io/pod-resources) whose value is a JSON object shaped like pod.spec.resources"
                + " ({\"requests\":{...},\"limits\":{...}}) and is used as the pod budget when the field is"
                + " absent. Unset: no annotation is read.")
        @Size(max = 317)
        @ValidationRule(
                value = "!format.qualifiedName().validate(self).hasValue()",
                message = "must be an annotation key: an optional DNS subdomain prefix and '/', then a name of at"
                        + " most 63 characters (alphanumerics, '-', '_', '.') that starts and ends with an"
                        + " alphanumeric, e.g. podnuma.io/pod-resources")
        String budgetAnnotation) {

    public PodLevelResources {
        enabled = Objects.requireNonNullElse(enabled, true);
    }

    public static PodLevelResources defaults() {
        return new PodLevelResources(null, null);
    }

    // Explicit accessors for components with CEL rules: an implicit one would carry the rules too, and the
    // generator would emit them twice (once from the field, once from the accessor).
    public String budgetAnnotation() {
        return budgetAnnotation;
    }
}
