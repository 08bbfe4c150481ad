package io.podnuma.crds;

import static io.podnuma.crds.GeneratedCrds.NODE_STATES;
import static io.podnuma.crds.GeneratedCrds.POLICIES;
import static io.podnuma.crds.GeneratedCrds.at;
import static io.podnuma.crds.GeneratedCrds.rootSchema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.podnuma.crds.schema.PrinterColumnOrder;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Structural facts of the generated CRDs that the API server would otherwise only reveal at install time. */
class CrdSchemaTest {

    @ParameterizedTest
    @ValueSource(strings = {POLICIES, NODE_STATES})
    void bothAreClusterScopedV1alpha1WithAStatusSubresource(String crdName) {
        CustomResourceDefinition crd = GeneratedCrds.load(crdName);
        CustomResourceDefinitionVersion version = GeneratedCrds.onlyVersion(crdName);

        assertThat(crd.getSpec().getScope()).isEqualTo("Cluster");
        assertThat(crd.getSpec().getGroup()).isEqualTo("podnuma.io");
        assertThat(crd.getSpec().getNames().getCategories()).containsExactly("podnuma");
        assertThat(version.getName()).isEqualTo("v1alpha1");
        assertThat(version.getStorage()).isTrue();
        assertThat(version.getSubresources().getStatus()).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {POLICIES, NODE_STATES})
    void everyListMapKeyIsRequiredAsTheApiServerDemands(String crdName) {
        List<String> violations = new ArrayList<>();
        walk(rootSchema(crdName), "", (path, schema) -> {
            if ("map".equals(schema.getXKubernetesListType())) {
                List<String> keys = schema.getXKubernetesListMapKeys();
                assertThat(keys).as("map keys of %s", path).isNotEmpty();
                List<String> required = schema.getItems().getSchema().getRequired();
                keys.stream()
                        .filter(k -> !required.contains(k))
                        .forEach(k -> violations.add(path + " key " + k + " is not required"));
            }
        });
        assertThat(violations).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {POLICIES, NODE_STATES})
    void noValidationRuleIsEmittedTwice(String crdName) {
        List<String> duplicates = new ArrayList<>();
        walk(rootSchema(crdName), "", (path, schema) -> {
            Set<String> seen = new HashSet<>();
            for (ValidationRule rule : schema.getXKubernetesValidations()) {
                if (!seen.add(rule.getRule())) {
                    duplicates.add(path + ": " + rule.getRule());
                }
            }
        });
        assertThat(duplicates).isEmpty();
    }

    /** Inherited fields too (the label selector's, metav1.Condition's): kubectl explain has no other source. */
    @ParameterizedTest
    @ValueSource(strings = {POLICIES, NODE_STATES})
    void everyPropertyIsDescribedForKubectlExplain(String crdName) {
        List<String> undocumented = new ArrayList<>();
        JSONSchemaProps root = rootSchema(crdName);
        walk(root, "", (path, schema) -> {
            // kubectl explain shows a list's or map's own description for its items and values.
            boolean itemOrValue = path.endsWith("[]") || path.endsWith("{}");
            if (!itemOrValue
                    && (schema.getDescription() == null
                            || schema.getDescription().isBlank())) {
                undocumented.add(path.isEmpty() ? "(the kind)" : path);
            }
        });
        assertThat(undocumented).as("properties without a description").isEmpty();
        assertThat(at(root, "spec").getDescription()).isNotBlank();
    }

    @ParameterizedTest
    @ValueSource(strings = {POLICIES, NODE_STATES})
    void ageIsTheLastColumnAndTheOthersComeInTheDeclaredOrder(String crdName) {
        List<CustomResourceColumnDefinition> columns =
                GeneratedCrds.onlyVersion(crdName).getAdditionalPrinterColumns();

        assertThat(columns.getLast())
                .extracting(CustomResourceColumnDefinition::getName, CustomResourceColumnDefinition::getJsonPath)
                .containsExactly("Age", ".metadata.creationTimestamp");
        Class<?> kind = crdName.equals(POLICIES) ? NumaResourcePolicy.class : NumaNodeState.class;
        assertThat(columns)
                .extracting(CustomResourceColumnDefinition::getName)
                .containsExactlyElementsOf(PrinterColumnOrder.declaredColumns(kind));
    }

    @Test
    void readyMeansTheReadyConditionInBothKinds() {
        CustomResourceColumnDefinition policy = column(POLICIES, "Ready");
        CustomResourceColumnDefinition node = column(NODE_STATES, "Ready");

        assertThat(policy.getJsonPath()).isEqualTo(".status.conditions[?(@.type==\"Ready\")].status");
        assertThat(List.of(node.getJsonPath(), node.getType(), node.getPriority()))
                .isEqualTo(List.of(policy.getJsonPath(), policy.getType(), policy.getPriority()));
        String meaning = "The READY column of kubectl get is the status of the Ready condition: True when the pins the"
                + " object describes are in force (a policy: on every node it governs; a node state: on its node),"
                + " False with the reason in the condition, empty before the first report.";
        assertThat(column(POLICIES, "Nodes-Ready").getJsonPath()).isEqualTo(".status.nodesReady");
        for (String crd : List.of(POLICIES, NODE_STATES)) {
            assertThat(at(rootSchema(crd), "status", "conditions").getDescription())
                    .as(crd)
                    .endsWith(meaning);
        }
    }

    private static CustomResourceColumnDefinition column(String crdName, String name) {
        return GeneratedCrds.onlyVersion(crdName).getAdditionalPrinterColumns().stream()
                .filter(c -> c.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(crdName + " has no printer column " + name));
    }

    @ParameterizedTest
    @ValueSource(strings = {POLICIES, NODE_STATES})
    void conditionsAreStandardAndKeyedByType(String crdName) {
        JSONSchemaProps conditions = at(rootSchema(crdName), "status", "conditions");

        assertThat(conditions.getXKubernetesListType()).isEqualTo("map");
        assertThat(conditions.getXKubernetesListMapKeys()).containsExactly("type");
        JSONSchemaProps item = conditions.getItems().getSchema();
        assertThat(item.getProperties())
                .containsKeys("type", "status", "reason", "message", "lastTransitionTime", "observedGeneration");
        assertThat(item.getRequired()).contains("type", "status", "lastTransitionTime");
    }

    @ParameterizedTest
    @ValueSource(strings = {POLICIES, NODE_STATES})
    void printerColumnsUseValidJsonPathsAndIncludeAge(String crdName) {
        List<CustomResourceColumnDefinition> columns =
                GeneratedCrds.onlyVersion(crdName).getAdditionalPrinterColumns();

        assertThat(columns).allSatisfy(c -> assertThat(c.getJsonPath()).startsWith("."));
        assertThat(columns)
                .filteredOn(c -> c.getName().equals("Age"))
                .singleElement()
                .satisfies(c -> assertThat(c.getType()).isEqualTo("date"));
    }

    @Test
    void policyColumnsShowTheSettingsAndTheRollout() {
        assertThat(GeneratedCrds.onlyVersion(POLICIES).getAdditionalPrinterColumns())
                .filteredOn(c -> c.getPriority() == 0)
                .extracting(CustomResourceColumnDefinition::getName, CustomResourceColumnDefinition::getJsonPath)
                .containsExactlyInAnyOrder(
                        tuple("Topology", ".spec.topologyManager.policy"),
                        tuple("Scope", ".spec.topologyManager.scope"),
                        tuple("CPU", ".spec.cpuManager.policy"),
                        tuple("Matched", ".status.nodesMatched"),
                        tuple("Nodes-Ready", ".status.nodesReady"),
                        tuple("Ready", ".status.conditions[?(@.type==\"Ready\")].status"),
                        tuple("Age", ".metadata.creationTimestamp"));
        assertThat(GeneratedCrds.load(POLICIES).getSpec().getNames().getShortNames())
                .containsExactly("nrp");
    }

    @Test
    void nodeStateColumnsShowTheMachineAndItsPinning() {
        assertThat(GeneratedCrds.onlyVersion(NODE_STATES).getAdditionalPrinterColumns())
                .filteredOn(c -> c.getPriority() == 0)
                .extracting(CustomResourceColumnDefinition::getName)
                .containsExactlyInAnyOrder("Policy", "NUMA", "CPUs", "Exclusive", "Ready", "Age");
        assertThat(GeneratedCrds.load(NODE_STATES).getSpec().getNames().getShortNames())
                .containsExactly("nns");
    }

    /** Visits every schema node depth-first; array items get "[]" and map values "{}" appended to the path. */
    private static void walk(JSONSchemaProps schema, String path, BiConsumer<String, JSONSchemaProps> visitor) {
        visitor.accept(path, schema);
        if (schema.getProperties() != null) {
            for (Map.Entry<String, JSONSchemaProps> property :
                    schema.getProperties().entrySet()) {
                walk(property.getValue(), path + "." + property.getKey(), visitor);
            }
        }
        if (schema.getItems() != null && schema.getItems().getSchema() != null) {
            walk(schema.getItems().getSchema(), path + "[]", visitor);
        }
        if (schema.getAdditionalProperties() != null
                && schema.getAdditionalProperties().getSchema() != null) {
            walk(schema.getAdditionalProperties().getSchema(), path + "{}", visitor);
        }
    }
}
