package io.podnuma.crds.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The gate's rules on mutated copies of the released NumaResourcePolicy CRD, each with its exact messages. */
class CrdCompatibilityTest {

    private static final String CRD = "numaresourcepolicies.podnuma.io";
    private static final String V = "/spec/versions/0";
    private static final String SPEC = V + "/schema/openAPIV3Schema/properties/spec/properties";
    private static final String AT = CRD + " v1alpha1: ";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Sets ({@code json} not null) or removes the node at {@code pointer}; {@code /-} appends to an array. */
    record Edit(String pointer, String json) {}

    record Case(String name, List<Edit> edits, List<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case breaks(String name, String pointer, String json, String... expected) {
        return new Case(name, List.of(new Edit(pointer, json)), List.of(expected));
    }

    private static Case passes(String name, String pointer, String json) {
        return new Case(name, List.of(new Edit(pointer, json)), List.of());
    }

    static Stream<Case> cases() {
        return Stream.of(
                passes("unchanged", "/metadata/name", "\"" + CRD + "\""),
                breaks("field removed", SPEC + "/priority", null, AT + "spec.priority: field removed"),
                breaks(
                        "nested field removed",
                        SPEC + "/cpuManager/properties/reservedCpus",
                        null,
                        AT + "spec.cpuManager.reservedCpus: field removed"),
                breaks(
                        "type changed",
                        SPEC + "/priority/type",
                        "\"string\"",
                        AT + "spec.priority: type changed from \"integer\" to \"string\""),
                breaks(
                        "enum value removed",
                        SPEC + "/admission/enum",
                        "[\"Warn\"]",
                        AT + "spec.admission: enum value \"Evict\" removed"),
                passes("enum value added", SPEC + "/admission/enum/-", "\"Drain\""),
                breaks(
                        "enum put on a free field",
                        SPEC + "/cpuManager/properties/reconcilePeriod/enum",
                        "[\"10s\"]",
                        AT + "spec.cpuManager.reconcilePeriod: enum added: [\"10s\"]"),
                breaks(
                        "field becomes required",
                        V + "/schema/openAPIV3Schema/properties/spec/required/-",
                        "\"priority\"",
                        AT + "spec: field priority became required"),
                breaks(
                        "maximum lowered",
                        SPEC + "/priority/maximum",
                        "100",
                        AT + "spec.priority: maximum lowered from 1000.0 to 100"),
                passes("maximum raised", SPEC + "/priority/maximum", "5000"),
                breaks(
                        "minimum raised",
                        SPEC + "/priority/minimum",
                        "1",
                        AT + "spec.priority: minimum raised from 0.0 to 1"),
                breaks(
                        "maxLength lowered",
                        SPEC + "/cpuManager/properties/reservedCpus/maxLength",
                        "64",
                        AT + "spec.cpuManager.reservedCpus: maxLength lowered from 1024 to 64"),
                breaks("bound added", SPEC + "/admission/maxLength", "8", AT + "spec.admission: maxLength 8 added"),
                breaks(
                        "pattern added",
                        SPEC + "/cpuManager/properties/reservedCpus/pattern",
                        "\"^[0-9,-]*$\"",
                        AT + "spec.cpuManager.reservedCpus: pattern added: \"^[0-9,-]*$\""),
                breaks(
                        "validation rule added",
                        SPEC + "/priority/x-kubernetes-validations",
                        "[{\"rule\": \"self < 500\", \"message\": \"below 500\"}]",
                        AT + "spec.priority: validation rule added or changed: self < 500"),
                passes(
                        "validation message reworded",
                        SPEC + "/cpuManager/x-kubernetes-validations/0/message",
                        "\"reservedCpus and reservedCpuCount exclude each other\""),
                passes("validation rule removed", SPEC + "/cpuManager/x-kubernetes-validations/0", null),
                new Case(
                        "rule on a new field that every stored object passes at its default",
                        List.of(
                                new Edit(
                                        SPEC + "/cpuManager/properties/mode",
                                        "{\"type\": \"string\", \"default\": \"off\"}"),
                                new Edit(
                                        SPEC + "/cpuManager/x-kubernetes-validations/-",
                                        "{\"rule\": \"self.policy == 'static' || self.mode == 'off'\"}")),
                        List.of()),
                new Case(
                        "rule on a new field that its default fails",
                        List.of(
                                new Edit(
                                        SPEC + "/cpuManager/properties/mode",
                                        "{\"type\": \"string\", \"default\": \"off\"}"),
                                new Edit(
                                        SPEC + "/cpuManager/x-kubernetes-validations/-",
                                        "{\"rule\": \"self.policy == 'static' || self.mode == 'on'\"}")),
                        List.of(AT + "spec.cpuManager: validation rule added or changed:"
                                + " self.policy == 'static' || self.mode == 'on'")),
                new Case(
                        "rule on a new field without a default",
                        List.of(
                                new Edit(SPEC + "/cpuManager/properties/mode", "{\"type\": \"string\"}"),
                                new Edit(
                                        SPEC + "/cpuManager/x-kubernetes-validations/-",
                                        "{\"rule\": \"self.policy == 'static' || self.mode == 'off'\"}")),
                        List.of(AT + "spec.cpuManager: validation rule added or changed:"
                                + " self.policy == 'static' || self.mode == 'off'")),
                passes("field added", SPEC + "/newField", "{\"type\": \"string\"}"),
                breaks(
                        "field removed inside list items",
                        SPEC + "/nodeSelector/properties/matchExpressions/items/properties/values",
                        null,
                        AT + "spec.nodeSelector.matchExpressions[].values: field removed"),
                breaks(
                        "list type changed",
                        SPEC + "/nodeSelector/properties/matchExpressions/x-kubernetes-list-type",
                        "\"set\"",
                        AT + "spec.nodeSelector.matchExpressions: x-kubernetes-list-type changed from \"atomic\" to"
                                + " \"set\""),
                breaks(
                        "list map keys changed",
                        SPEC + "/memoryManager/properties/reservedMemory/x-kubernetes-list-map-keys",
                        "[\"numaNode\", \"limits\"]",
                        AT + "spec.memoryManager.reservedMemory: x-kubernetes-list-map-keys changed from [\"numaNode\"]"
                                + " to [\"numaNode\",\"limits\"]"),
                passes("maxItems raised", SPEC + "/nodeSelector/properties/matchExpressions/maxItems", "64"),
                breaks("served version removed", V, null, AT + "served version removed"),
                breaks("version no longer served", V + "/served", "false", AT + "version no longer served"),
                passes(
                        "version added",
                        "/spec/versions/-",
                        "{\"name\": \"v1beta1\", \"served\": true, \"storage\": false}"),
                breaks(
                        "scope changed",
                        "/spec/scope",
                        "\"Namespaced\"",
                        CRD + ": scope changed from Cluster to Namespaced"),
                breaks(
                        "printer column removed",
                        V + "/additionalPrinterColumns/1",
                        null,
                        AT + "printer column CPU: removed"),
                breaks(
                        "printer column path changed",
                        V + "/additionalPrinterColumns/1/jsonPath",
                        "\".spec.cpu\"",
                        AT + "printer column CPU: jsonPath changed from \".spec.cpuManager.policy\" to \".spec.cpu\""),
                passes(
                        "printer column added",
                        V + "/additionalPrinterColumns/-",
                        "{\"name\": \"Priority\", \"type\": \"integer\", \"jsonPath\": \".spec.priority\"}"),
                new Case(
                        "several at once, each named",
                        List.of(new Edit(SPEC + "/priority", null), new Edit(SPEC + "/admission/enum", "[\"Evict\"]")),
                        List.of(
                                AT + "spec.admission: enum value \"Warn\" removed",
                                AT + "spec.priority: field removed")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachMutationOfTheReleasedCrdGivesExactlyItsMessages(Case c) throws Exception {
        JsonNode released = ReleasedCrds.read(ReleasedCrds.latest()).get(CRD);
        JsonNode mutated = released.deepCopy();
        for (Edit e : c.edits()) {
            apply(mutated, e);
        }
        assertThat(CrdCompatibility.breakingChanges(released, mutated)).containsExactlyElementsOf(c.expected());
    }

    private static void apply(JsonNode root, Edit e) throws Exception {
        JsonPointer p = JsonPointer.compile(e.pointer());
        JsonNode parent = root.at(p.head());
        String last = p.last().getMatchingProperty();
        assertThat(parent.isMissingNode()).as("parent of %s", e.pointer()).isFalse();
        JsonNode value = e.json() == null ? null : JSON.readTree(e.json());
        if (parent instanceof ArrayNode a) {
            if (last.equals("-")) {
                a.add(value);
            } else if (value == null) {
                a.remove(Integer.parseInt(last));
            } else {
                a.set(Integer.parseInt(last), value);
            }
        } else if (value == null) {
            assertThat(((ObjectNode) parent).remove(last)).as(e.pointer()).isNotNull();
        } else {
            ((ObjectNode) parent).set(last, value);
        }
    }
}
