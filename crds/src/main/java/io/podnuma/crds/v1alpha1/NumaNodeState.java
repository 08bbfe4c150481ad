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
 * One node's NUMA topology and pinning state, named after the node and owned by its Node object. Cluster-scoped; each
 * node agent writes only its own.
 */
@Group(NumaResourcePolicy.GROUP)
@Version(NumaResourcePolicy.VERSION)
@Kind("NumaNodeState")
@Plural("numanodestates")
@Singular("numanodestate")
@ShortNames("nns")
@Categories("podnuma")
@ValidationRule(
        value = "!has(self.spec) || self.spec.nodeName == self.metadata.name",
        message = "spec.nodeName must equal metadata.name: a NumaNodeState is named after its node",
        fieldPath = ".spec.nodeName")
// kubectl shows the columns in this order (PrinterColumnOrder undoes the generator's sort by JSONPath): AGE last.
@AdditionalPrinterColumn(name = "Policy", jsonPath = ".status.policy", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "NUMA",
        jsonPath = ".status.topology.numaNodeCount",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "CPUs",
        jsonPath = ".status.topology.cpuCount",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "Exclusive",
        jsonPath = ".status.exclusiveCpus",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "Shared",
        jsonPath = ".status.sharedPool",
        type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(
        name = ApiSchemas.READY_COLUMN,
        jsonPath = ApiSchemas.READY_PATH,
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = ApiSchemas.AGE_COLUMN,
        jsonPath = ApiSchemas.AGE_PATH,
        type = AdditionalPrinterColumn.Type.DATE)
@SchemaCustomizer(value = JsonMergePatch.class, input = NumaNodeState.SCHEMA_DOCS)
public class NumaNodeState extends CustomResource<NumaNodeStateSpec, NumaNodeStateStatus> {

    // Descriptions kubectl explain shows for the kind, spec and status (the inherited fields carry no annotation).
    static final String SCHEMA_DOCS =
            "{\"description\":\"One node's NUMA topology and pinning state, reported by the podnuma node agent on that node. Named after the node and owned by its Node object. Cluster-scoped.\","
                    + "\"properties\":{\"spec\":{\"description\":\"Which node this object describes.\"},"
                    + "\"status\":{\"description\":\"The discovered machine, the policy in force, the shared pool and every pinned pod. Written by the node's agent only.\"}}}";

    public NumaNodeState() {}

    public NumaNodeState(String nodeName) {
        getMetadata().setName(nodeName);
        setSpec(new NumaNodeStateSpec(nodeName));
    }
}
