package io.podnuma.crds;

import static io.podnuma.crds.ItSupport.getJson;
import static io.podnuma.crds.ItSupport.succeeded;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed CRDs against a real kube-apiserver v1.37.2, through the real kubectl: what a user sees when applying
 * good and bad policies, explaining fields and listing objects.
 */
@ExtendWith(ControlPlaneExtension.class)
class CrdValidationIT {

    @BeforeAll
    static void installCrds(ControlPlane cp) {
        ItSupport.installCrds(cp);
    }

    @AfterEach
    void deletePolicies(ControlPlane cp) {
        succeeded(cp.kubectl("delete", "numaresourcepolicies", "--all", "--wait=true"));
    }

    static List<Path> examples() throws Exception {
        return ExamplesTest.examples();
    }

    static List<InvalidPolicyCase> invalidCases() {
        return InvalidPolicyCase.all();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleIsAcceptedAndStoredWithDefaults(Path example, ControlPlane cp) {
        CommandResult applied =
                cp.kubectl("apply", "-f", example.toAbsolutePath().toString());

        assertThat(applied.exitCode())
                .as("kubectl apply %s: %s", example, applied.stderr())
                .isZero();
        String name = example.getFileName().toString().replace(".yaml", "");
        assertThat(applied.stdout()).contains("numaresourcepolicy.podnuma.io/" + name + " created");

        // Read back raw JSON: the typed client would fill the Java-side defaults and hide missing server defaults.
        JsonNode spec = getJson(cp, "numaresourcepolicy", name).get("spec");
        assertThat(spec.at("/topologyManager/policy").isTextual()).isTrue();
        assertThat(spec.at("/topologyManager/scope").isTextual()).isTrue();
        assertThat(spec.at("/topologyManager/options/maxAllowableNumaNodes").isInt())
                .isTrue();
        assertThat(spec.at("/cpuManager/reconcilePeriod").isTextual()).isTrue();
        assertThat(spec.at("/cpuManager/options/strictCpuReservation").isBoolean())
                .isTrue();
        assertThat(spec.at("/memoryManager/policy").isTextual()).isTrue();
        assertThat(spec.at("/podLevelResources/enabled").isBoolean()).isTrue();
        assertThat(spec.at("/admission").isTextual()).isTrue();
        assertThat(spec.at("/priority").isInt()).isTrue();
        assertThat(spec.at("/exportNodeResourceTopology").isBoolean()).isTrue();

        // The typed read the operator does sees the server's defaults; the records fill the same ones offline.
        NumaResourcePolicy stored =
                cp.client().resources(NumaResourcePolicy.class).withName(name).get();
        NumaResourcePolicy offline =
                GeneratedCrds.SERIALIZATION.unmarshal(TestFiles.read(example), NumaResourcePolicy.class);
        assertThat(stored.getSpec()).isEqualTo(offline.getSpec());
    }

    @Test
    void theServerFillsTheDocumentedDefaults(ControlPlane cp) {
        succeeded(cp.kubectlWithStdin("""
                apiVersion: podnuma.io/v1alpha1
                kind: NumaResourcePolicy
                metadata:
                  name: defaults
                spec:
                  nodeSelector: {}
                """, "apply", "-f", "-"));

        JsonNode spec = getJson(cp, "numaresourcepolicy", "defaults").get("spec");

        assertThat(spec.at("/priority").asInt()).isZero();
        assertThat(spec.at("/topologyManager/policy").asText()).isEqualTo("none");
        assertThat(spec.at("/topologyManager/scope").asText()).isEqualTo("container");
        assertThat(spec.at("/topologyManager/options/preferClosestNumaNodes").asBoolean())
                .isFalse();
        assertThat(spec.at("/topologyManager/options/maxAllowableNumaNodes").asInt())
                .isEqualTo(8);
        assertThat(spec.at("/cpuManager/policy").asText()).isEqualTo("none");
        assertThat(spec.at("/cpuManager/reconcilePeriod").asText()).isEqualTo("10s");
        assertThat(spec.at("/cpuManager/options/fullPcpusOnly").asBoolean()).isFalse();
        assertThat(spec.at("/cpuManager").has("reservedCpus")).isFalse();
        assertThat(spec.at("/memoryManager/policy").asText()).isEqualTo("None");
        assertThat(spec.at("/podLevelResources/enabled").asBoolean()).isTrue();
        assertThat(spec.at("/admission").asText()).isEqualTo("Warn");
        assertThat(spec.at("/exportNodeResourceTopology").asBoolean()).isFalse();
    }

    @Test
    void minimalExampleKeepsWhatTheUserWroteAndDefaultsTheRest(ControlPlane cp) {
        succeeded(cp.kubectl(
                "apply", "-f", Path.of("examples/minimal.yaml").toAbsolutePath().toString()));

        JsonNode spec = getJson(cp, "nrp", "minimal").get("spec");

        assertThat(spec.at("/cpuManager/policy").asText()).isEqualTo("static");
        assertThat(spec.at("/cpuManager/reservedCpuCount").asInt()).isEqualTo(2);
        assertThat(spec.at("/cpuManager/reconcilePeriod").asText()).isEqualTo("10s");
        assertThat(spec.at("/nodeSelector/matchLabels/podnuma.io~1pool").asText())
                .isEqualTo("latency");
        assertThat(spec.at("/topologyManager/policy").asText()).isEqualTo("none");
    }

    @ParameterizedTest
    @MethodSource("invalidCases")
    void invalidPolicyIsRejectedWithAPreciseMessage(InvalidPolicyCase invalid, ControlPlane cp) {
        CommandResult result = cp.kubectlWithStdin(invalid.yaml(), "apply", "-f", "-");

        assertThat(result.exitCode())
                .as("kubectl apply of %s should fail", invalid.name())
                .isNotZero();
        for (String expected : invalid.expected()) {
            assertThat(result.stderr())
                    .as("stderr of kubectl apply for %s", invalid.name())
                    .contains(expected);
        }
        CommandResult get = cp.kubectl("get", "nrp", invalid.name(), "--ignore-not-found", "-o", "name");
        assertThat(get.stdout())
                .as("%s must not have been stored", invalid.name())
                .isBlank();
    }

    @Test
    void explainShowsTheFieldDescriptions(ControlPlane cp) {
        CommandResult explain = succeeded(cp.kubectl("explain", "nrp.spec.cpuManager"));

        assertThat(explain.stdout())
                .contains("KIND:       NumaResourcePolicy")
                .contains("FIELD: cpuManager <Object>")
                .contains("reservedCpus\t<string>")
                .contains("reservedCpuCount\t<integer>")
                .contains("reconcilePeriod\t<string>")
                .contains("enum: none, static");
        // kubectl wraps descriptions at its terminal width; compare with the line breaks folded.
        assertThat(folded(explain.stdout()))
                .contains("CPU manager: exclusive CPUs for qualifying containers and pods.")
                .contains("CPUs kept for the system and never handed out exclusively, as a Linux CPU list (e.g."
                        + " 0-1,32-33; ascending, without overlap). Mutually exclusive with reservedCpuCount;")
                .contains("(e.g. 10s, 1m30s; between 1s and 1h). Defaults to 10s.");

        CommandResult kind = succeeded(cp.kubectl("explain", "numaresourcepolicy"));
        assertThat(folded(kind.stdout()))
                .contains("KEP-5526 pod-level resource managers")
                .contains("spec <Object> The resource managers' settings for the selected nodes.");

        CommandResult alignBySocket = succeeded(cp.kubectl("explain", "nrp.spec.cpuManager.options.alignBySocket"));
        assertThat(folded(alignBySocket.stdout()))
                .contains("FIELD: alignBySocket <boolean>")
                .contains("Not with topologyManager.policy single-numa-node.");

        CommandResult assignment = succeeded(cp.kubectl("explain", "nns.status.allocations.containers.assignment"));
        assertThat(folded(assignment.stdout()))
                .contains("KIND: NumaNodeState")
                .contains("PodShared (the pod's shared pool)");
    }

    private static String folded(String text) {
        return text.replaceAll("\\s+", " ");
    }

    @Test
    void getShowsThePolicyAtAGlance(ControlPlane cp) {
        succeeded(cp.kubectl(
                "apply",
                "-f",
                Path.of("examples/pod-scope-hybrid.yaml").toAbsolutePath().toString()));

        List<String> lines =
                succeeded(cp.kubectl("get", "nrp")).stdout().lines().toList();

        assertThat(lines.getFirst().split("\\s+"))
                .containsExactly("NAME", "TOPOLOGY", "SCOPE", "CPU", "MATCHED", "NODES-READY", "READY", "AGE");
        assertThat(lines.get(1).split("\\s+"))
                .startsWith("pod-scope-hybrid")
                .contains("static", "single-numa-node", "pod");

        List<String> wide = succeeded(cp.kubectl("get", "nrp", "-o", "wide"))
                .stdout()
                .lines()
                .toList();
        assertThat(wide.getFirst().split("\\s+"))
                .containsExactly(
                        "NAME",
                        "TOPOLOGY",
                        "SCOPE",
                        "CPU",
                        "MEMORY",
                        "MATCHED",
                        "NODES-READY",
                        "PINNED",
                        "READY",
                        "AGE");
        assertThat(wide.get(1)).contains("None");
    }

    @Test
    void explainDescribesTheUpstreamSelectorAndConditionFields(ControlPlane cp) {
        assertThat(folded(succeeded(cp.kubectl("explain", "nrp.spec.nodeSelector.matchExpressions.operator"))
                        .stdout()))
                .contains("How the label is compared: In (its value is one of values)");
        assertThat(folded(succeeded(cp.kubectl("explain", "nns.status.conditions.reason"))
                        .stdout()))
                .contains("Why the condition has its status, one CamelCase word");
    }
}
