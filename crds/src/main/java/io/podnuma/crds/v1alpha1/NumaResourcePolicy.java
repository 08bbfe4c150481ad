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
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.nodesReady", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "Pinned",
        jsonPath = ".status.podsPinned",
        type = AdditionalPrinterColumn.Type.INTEGER,
        priority = 1)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class NumaResourcePolicy extends CustomResource<NumaResourcePolicySpec, NumaResourcePolicyStatus> {

    public static final String GROUP = "podnuma.io";
    public static final String VERSION = "v1alpha1";

    public NumaResourcePolicy() {}

    public NumaResourcePolicy(String name, NumaResourcePolicySpec spec) {
        getMetadata().setName(name);
        setSpec(spec);
    }
}
