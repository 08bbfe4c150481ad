package io.podnuma.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's policies as the operator renders them into the agents' objects: a policy the agent would refuse
 * (or whose name cannot name the objects) is not rendered, with every problem in one answer, the one the operator
 * puts in the policy's status and Events.
 */
class BadPolicyOperatorCasesTest {

    private static final InputKind KIND = InputKind.POLICY_OPERATOR;
    private static final String KEPT = "nothing is applied: the agents already rolled out keep their last config";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final AgentRollout ROLLOUT = AgentRollout.defaults("podnuma.local/node-agent:1");
    private static final Map<String, String> NAMES = new HashMap<>();

    static List<BadInput> cases() {
        return List.of(
                c(
                        "po-name-dots",
                        "a name with dots (fine for the API server, no Service name)",
                        "low.latency",
                        "cpuManager: {policy: none}\n",
                        "policy name 'low.latency' cannot name its agents' objects: allowed at most 49 characters of a-z, 0-9 and '-', starting with a letter and ending with a letter or digit (it becomes the Service podnuma-agent-<name> and the node label value)"),
                c(
                        "po-name-long",
                        "a name too long for its objects",
                        "a-policy-name-that-is-fifty-characters-long-000000",
                        "cpuManager: {policy: none}\n",
                        "policy name 'a-policy-name-that-is-fifty-characters-long-000000' cannot name its agents' objects: allowed at most 49 characters of a-z, 0-9 and '-', starting with a letter and ending with a letter or digit (it becomes the Service podnuma-agent-<name> and the node label value)"),
                c(
                        "po-static-without-reservation",
                        "static CPU policy reserving nothing",
                        "latency",
                        "cpuManager: {policy: static}\n",
                        "policy latency cannot be rendered: spec.cpuManager.reservedCpus is missing: policy static needs CPUs reserved for the system, set reservedCpus (e.g. \"0,64\") or reservedCpuCount (e.g. 2)"),
                c(
                        "po-reserved-both",
                        "reservedCpus and reservedCpuCount together",
                        "latency",
                        "cpuManager: {policy: static, reservedCpus: \"0-1\", reservedCpuCount: 2}\n",
                        "policy latency cannot be rendered: spec.cpuManager.reservedCpuCount 2 is set together with reservedCpus \"0-1\": allowed at most one of reservedCpus and reservedCpuCount"),
                c(
                        "po-options-without-static",
                        "CPU options with policy none",
                        "latency",
                        "cpuManager: {options: {fullPcpusOnly: true}}\n",
                        "policy latency cannot be rendered: spec.cpuManager.options fullPcpusOnly: options need cpuManager.policy static (policy is none); the kubelet applies them to the static policy only"),
                c(
                        "po-memory-static-no-memory",
                        "Static memory policy without a memory reservation",
                        "latency",
                        "memoryManager: {policy: Static}\n",
                        "policy latency cannot be rendered: spec.memoryManager.reservedMemory has no memory limit: the Static policy needs memory reserved for the system, add an entry with a memory limit for at least one NUMA node (huge pages alone do not count)"),
                c(
                        "po-budget-while-disabled",
                        "a budget annotation with pod-level resources off",
                        "latency",
                        "podLevelResources: {enabled: false, budgetAnnotation: example.com/budget}\n",
                        "policy latency cannot be rendered: spec.podLevelResources.budgetAnnotation \"example.com/budget\": only read when podLevelResources.enabled is true; remove it or set enabled: true"),
                c(
                        "po-three-mistakes",
                        "three mistakes in one spec",
                        "latency",
                        "topologyManager: {options: {maxAllowableNumaNodes: 2}}\ncpuManager: {policy: static, reservedCpuCount: 0, reconcilePeriod: 2h}\n",
                        "policy latency cannot be rendered: spec.topologyManager.options.maxAllowableNumaNodes 2: allowed 8 to 1024; spec.cpuManager.reservedCpuCount 0: allowed 1 to 8192; spec.cpuManager.reconcilePeriod \"2h\": allowed 1s to 1h"),
                c(
                        "po-name-and-spec",
                        "a bad name and a bad spec",
                        "Latency",
                        "cpuManager: {policy: static}\nmemoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: \"0\"}}]}\n",
                        "policy Latency cannot be rendered: policy name 'Latency' cannot name its agents' objects: allowed at most 49 characters of a-z, 0-9 and '-', starting with a letter and ending with a letter or digit (it becomes the Service podnuma-agent-<name> and the node label value); spec.cpuManager.reservedCpus is missing: policy static needs CPUs reserved for the system, set reservedCpus (e.g. \"0,64\") or reservedCpuCount (e.g. 2); spec.memoryManager.reservedMemory[0].limits.memory \"0\": allowed a positive quantity such as 1Gi or 512Mi (the kubelet rejects a zero reservation)"));
    }

    private static BadInput c(String id, String wrong, String name, String spec, String... answer) {
        NAMES.put(id, name);
        return new BadInput(id, KIND, wrong, "name " + name + ", spec:\n" + spec, List.of(answer), KEPT);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theOperatorRefusesToRenderWithEveryProblem(BadInput c) throws Exception {
        String name = NAMES.get(c.id());
        NumaResourcePolicySpec spec =
                YAML.readValue(c.input().substring(c.input().indexOf(":\n") + 2), NumaResourcePolicySpec.class);
        String answer;
        try {
            AgentRender.render(name, spec, ROLLOUT);
            throw new AssertionError("the operator rendered the policy");
        } catch (IllegalArgumentException e) {
            answer = e.getMessage();
        }
        c.assertAnswer(List.of(answer));
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "operator", getClass().getSimpleName()))
                .isNull();
    }
}
