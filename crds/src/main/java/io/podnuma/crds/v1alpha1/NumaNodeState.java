package io.podnuma.crds.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

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
        name = "Ready",
        jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Shared",
        jsonPath = ".status.sharedPool",
        type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class NumaNodeState extends CustomResource<NumaNodeStateSpec, NumaNodeStateStatus> {

    public NumaNodeState() {}

    public NumaNodeState(String nodeName) {
        getMetadata().setName(nodeName);
        setSpec(new NumaNodeStateSpec(nodeName));
    }
}
