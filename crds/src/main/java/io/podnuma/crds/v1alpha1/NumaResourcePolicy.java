package io.podnuma.crds.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import io.podnuma.crds.schema.JsonMergePatch;

/**
 * How the nodes a selector picks pin CPUs and memory to NUMA nodes. Cluster-scoped; written by users, status by the
 * operator.
 */
@Group(NumaResourcePolicy.GROUP)
@Version(NumaResourcePolicy.VERSION)
@Kind("NumaResourcePolicy")
@Plural("numaresourcepolicies")
@Singular("numaresourcepolicy")
@ShortNames("nrp")
@Categories("podnuma")
@ValidationRule(
        value = "has(self.spec)",
        message = "spec is required: spec.nodeSelector picks the nodes the policy governs ({} for every node)",
        reason = "FieldValueRequired",
        fieldPath = ".spec")
@ValidationRule(
        value = "self.metadata.name.size() <= 49 && self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
        message = "metadata.name must be at most 49 characters of a-z, 0-9 and '-', starting with a letter and"
                + " ending with a letter or digit: it is the value of the podnuma.io/policy node label and names the"
                + " policy's agent Service podnuma-agent-<name>",
        reason = "FieldValueInvalid")
// kubectl shows the columns in this order (PrinterColumnOrder undoes the generator's sort by JSONPath): AGE last.
@AdditionalPrinterColumn(
        name = "Topology",
        jsonPath = ".spec.topologyManager.policy",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Scope",
        jsonPath = ".spec.topologyManager.scope",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "CPU", jsonPath = ".spec.cpuManager.policy", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Memory",
        jsonPath = ".spec.memoryManager.policy",
        type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(
        name = "Matched",
        jsonPath = ".status.nodesMatched",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "Nodes-Ready",
        jsonPath = ".status.nodesReady",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "Pinned",
        jsonPath = ".status.podsPinned",
        type = AdditionalPrinterColumn.Type.INTEGER,
        priority = 1)
@AdditionalPrinterColumn(
        name = ApiSchemas.READY_COLUMN,
        jsonPath = ApiSchemas.READY_PATH,
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = ApiSchemas.AGE_COLUMN,
        jsonPath = ApiSchemas.AGE_PATH,
        type = AdditionalPrinterColumn.Type.DATE)
@SchemaCustomizer(value = JsonMergePatch.class, input = NumaResourcePolicy.SCHEMA_DOCS)
public class NumaResourcePolicy extends CustomResource<NumaResourcePolicySpec, NumaResourcePolicyStatus> {

    public static final String GROUP = "podnuma.io";
    public static final String VERSION = "v1alpha1";

    // Descriptions kubectl explain shows for the kind, spec and status (the inherited fields carry no annotation).
    static final String SCHEMA_DOCS =
            "{\"description\":\"How the nodes a selector picks pin CPUs and memory to NUMA nodes (Kubernetes v1.37 resource-manager semantics, including KEP-5526 pod-level resource managers), applied by the podnuma node agent instead of the kubelet. Cluster-scoped.\","
                    + "\"properties\":{\"spec\":{\"description\":\"The resource managers' settings for the selected nodes. Unset fields take the kubelet's defaults.\"},"
                    + "\"status\":{\"description\":\"What the operator observed: rollout counters, totals and conditions. Written by the operator only.\"}}}";

    public NumaResourcePolicy() {}

    public NumaResourcePolicy(String name, NumaResourcePolicySpec spec) {
        getMetadata().setName(name);
        setSpec(spec);
    }
}
