package io.podnuma.crds.v1alpha1.policy.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The CRD's OpenAPI and CEL rules, re-checked by the agent on a spec that never passed the API server. */
class PolicyValidatorTest {

    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    static List<String> problems(String specYaml) throws IOException {
        return PolicyValidator.validate(YAML.readValue(specYaml, NumaResourcePolicySpec.class), "policy");
    }

    static Stream<Arguments> invalid() {
        String st = "cpuManager: {policy: static, reservedCpuCount: 2, options: {%s}}";
        return Stream.of(
                bad("priority: -1", "policy.priority -1: allowed 0 to 1000"),
                bad("priority: 1001", "policy.priority 1001: allowed 0 to 1000"),
                bad(
                        "topologyManager: {options: {maxAllowableNumaNodes: 7}}",
                        "policy.topologyManager.options.maxAllowableNumaNodes 7: allowed 8 to 1024"),
                bad(
                        "topologyManager: {options: {maxAllowableNumaNodes: 1025}}",
                        "policy.topologyManager.options.maxAllowableNumaNodes 1025: allowed 8 to 1024"),
                bad(
                        "cpuManager: {policy: static, reservedCpuCount: 0}",
                        "policy.cpuManager.reservedCpuCount 0: allowed 1 to 8192"),
                bad(
                        "cpuManager: {policy: static, reservedCpuCount: 8193}",
                        "policy.cpuManager.reservedCpuCount 8193: allowed 1 to 8192"),
                bad(
                        "cpuManager: {policy: static, reservedCpus: \"0-3;8\"}",
                        "policy.cpuManager.reservedCpus \"0-3;8\": allowed a Linux CPU list such as 0-3,8,10-11: CPU"
                                + " ids (0-9999) or first-last ranges, separated by commas"),
                bad(
                        "cpuManager: {policy: static, reservedCpus: \"\"}",
                        "policy.cpuManager.reservedCpus \"\": allowed a Linux CPU list such as 0-3,8,10-11: CPU ids"
                                + " (0-9999) or first-last ranges, separated by commas"),
                bad(
                        "cpuManager: {policy: static, reservedCpus: \"10000\"}",
                        "policy.cpuManager.reservedCpus \"10000\": allowed a Linux CPU list such as 0-3,8,10-11: CPU"
                                + " ids (0-9999) or first-last ranges, separated by commas"),
                bad(
                        "cpuManager: {policy: static, reservedCpus: \" 0,1\"}",
                        "policy.cpuManager.reservedCpus \" 0,1\": allowed a Linux CPU list such as 0-3,8,10-11: CPU"
                                + " ids (0-9999) or first-last ranges, separated by commas"),
                bad("cpuManager: {policy: static, reservedCpus: \"8,0-3\"}", order("8,0-3")),
                bad("cpuManager: {policy: static, reservedCpus: \"0-3,3-5\"}", order("0-3,3-5")),
                bad("cpuManager: {policy: static, reservedCpus: \"3-0\"}", order("3-0")),
                bad("cpuManager: {policy: static, reservedCpus: \"1,1\"}", order("1,1")),
                bad(
                        "cpuManager: {policy: static, reservedCpus: \"" + "1,".repeat(600) + "1\"}",
                        "policy.cpuManager.reservedCpus \"" + "1,".repeat(600) + "1\": allowed at most 1024"
                                + " characters"),
                bad(
                        "cpuManager: {policy: static, reservedCpus: \"0-1\", reservedCpuCount: 2}",
                        "policy.cpuManager.reservedCpuCount 2 is set together with reservedCpus \"0-1\": allowed at"
                                + " most one of reservedCpus and reservedCpuCount"),
                bad(
                        "cpuManager: {policy: static}",
                        "policy.cpuManager.reservedCpus is missing: policy static needs CPUs reserved for the system,"
                                + " set reservedCpus (e.g. \"0,64\") or reservedCpuCount (e.g. 2)"),
                bad(
                        "cpuManager: {options: {fullPcpusOnly: true, strictCpuReservation: true}}",
                        "policy.cpuManager.options fullPcpusOnly, strictCpuReservation: options need"
                                + " cpuManager.policy static (policy is none); the kubelet applies them to the static"
                                + " policy only"),
                bad(
                        st.formatted("distributeCpusAcrossCores: true, fullPcpusOnly: true"),
                        "policy.cpuManager.options.distributeCpusAcrossCores true: not allowed with fullPcpusOnly true"
                                + " (the kubelet refuses the pair)"),
                bad(
                        st.formatted("distributeCpusAcrossCores: true, distributeCpusAcrossNuma: true"),
                        "policy.cpuManager.options.distributeCpusAcrossCores true: not allowed with"
                                + " distributeCpusAcrossNuma true (the kubelet refuses the pair)"),
                bad(
                        st.formatted("distributeCpusAcrossCores: true, preferAlignCpusByUncoreCache: true"),
                        "policy.cpuManager.options.preferAlignCpusByUncoreCache true: not allowed with"
                                + " distributeCpusAcrossCores true (the kubelet refuses the pair)"),
                bad(
                        st.formatted("distributeCpusAcrossNuma: true, preferAlignCpusByUncoreCache: true"),
                        "policy.cpuManager.options.preferAlignCpusByUncoreCache true: not allowed with"
                                + " distributeCpusAcrossNuma true (the kubelet refuses the pair)"),
                bad(
                        "topologyManager: {policy: single-numa-node}\n" + st.formatted("alignBySocket: true"),
                        "policy.cpuManager.options.alignBySocket true: not allowed with topologyManager.policy"
                                + " single-numa-node (the kubelet rejects this pair; a single NUMA node is already the"
                                + " narrower boundary)"),
                bad("cpuManager: {reconcilePeriod: \"10\"}", period("10")),
                bad("cpuManager: {reconcilePeriod: 10S}", period("10S")),
                bad("cpuManager: {reconcilePeriod: \"-10s\"}", period("-10s")),
                bad("cpuManager: {reconcilePeriod: 1.s}", period("1.s")),
                bad("cpuManager: {reconcilePeriod: \"" + "1s".repeat(17) + "\"}", period("1s".repeat(17))),
                bad("cpuManager: {reconcilePeriod: 2h}", "policy.cpuManager.reconcilePeriod \"2h\": allowed 1s to 1h"),
                bad(
                        "cpuManager: {reconcilePeriod: 999999us}",
                        "policy.cpuManager.reconcilePeriod \"999999us\": allowed 1s to 1h"),
                bad(
                        "cpuManager: {reconcilePeriod: 1h1ns}",
                        "policy.cpuManager.reconcilePeriod \"1h1ns\": allowed 1s to 1h"),
                bad(
                        "memoryManager: {policy: Static}",
                        "policy.memoryManager.reservedMemory has no memory limit: the Static policy needs memory"
                                + " reserved for the system, add an entry with a memory limit for at least one NUMA"
                                + " node (huge pages alone do not count)"),
                bad(
                        "memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: 1Gi}},"
                                + " {numaNode: 0, limits: {memory: 2Gi}}]}",
                        "policy.memoryManager.reservedMemory[1].numaNode 0 repeats reservedMemory[0]: allowed one"
                                + " entry per NUMA node"),
                bad(
                        "memoryManager: {reservedMemory: [{numaNode: 1024, limits: {memory: 1Gi}}]}",
                        "policy.memoryManager.reservedMemory[0].numaNode 1024: allowed 0 to 1023"),
                bad(
                        "memoryManager: {reservedMemory: [{limits: {memory: 1Gi}}]}",
                        "policy.memoryManager.reservedMemory[0].numaNode is missing: allowed a NUMA node id 0 to"
                                + " 1023"),
                bad(
                        "memoryManager: {reservedMemory: [{numaNode: 0}]}",
                        "policy.memoryManager.reservedMemory[0].limits has 0 entries: allowed 1 to 8 (memory and"
                                + " hugepages-<size>)"),
                bad(
                        "memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: 1Gi, cpu: \"1\"}}]}",
                        "policy.memoryManager.reservedMemory[0].limits: unknown resource \"cpu\": allowed memory and"
                                + " hugepages-<size> (e.g. hugepages-2Mi, hugepages-1Gi)"),
                bad(
                        "memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: 1Gi, hugepages-2MB: 2Mi}}]}",
                        "policy.memoryManager.reservedMemory[0].limits: unknown resource \"hugepages-2MB\": allowed"
                                + " memory and hugepages-<size> (e.g. hugepages-2Mi, hugepages-1Gi)"),
                bad(
                        "memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: 1GB}}]}",
                        "policy.memoryManager.reservedMemory[0].limits.memory \"1GB\": not a quantity: allowed a number"
                                + " with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, k, M, G, T, P, E or an exponent,"
                                + " e.g. 1Gi or 512Mi"),
                bad(
                        "memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: \"0\"}}]}",
                        "policy.memoryManager.reservedMemory[0].limits.memory \"0\": allowed a positive quantity such"
                                + " as 1Gi or 512Mi (the kubelet rejects a zero reservation)"),
                bad(
                        "memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: \"-1Gi\"}}]}",
                        "policy.memoryManager.reservedMemory[0].limits.memory \"-1Gi\": allowed a positive quantity"
                                + " such as 1Gi or 512Mi (the kubelet rejects a zero reservation)"),
                bad(
                        "podLevelResources: {enabled: false, budgetAnnotation: podnuma.io/pod-resources}",
                        "policy.podLevelResources.budgetAnnotation \"podnuma.io/pod-resources\": only read when"
                                + " podLevelResources.enabled is true; remove it or set enabled: true"),
                bad("podLevelResources: {budgetAnnotation: \"pod budget!\"}", annotation("pod budget!")),
                bad("podLevelResources: {budgetAnnotation: /budget}", annotation("/budget")),
                bad("podLevelResources: {budgetAnnotation: Podnuma.io/budget}", annotation("Podnuma.io/budget")),
                bad("podLevelResources: {budgetAnnotation: podnuma.io/budget-}", annotation("podnuma.io/budget-")),
                bad("podLevelResources: {budgetAnnotation: a/b/c}", annotation("a/b/c")),
                bad("podLevelResources: {budgetAnnotation: \"\"}", annotation("")),
                bad(
                        "podLevelResources: {budgetAnnotation: podnuma.io/" + "n".repeat(64) + "}",
                        annotation("podnuma.io/" + "n".repeat(64))),
                bad(
                        "nodeSelector: {matchExpressions: [{key: a, operator: Near, values: [x]}]}",
                        "policy.nodeSelector.matchExpressions[0].operator \"Near\": allowed In, NotIn, Exists,"
                                + " DoesNotExist"),
                bad(
                        "nodeSelector: {matchExpressions: [{key: a}]}",
                        "policy.nodeSelector.matchExpressions[0].operator is missing: allowed In, NotIn, Exists,"
                                + " DoesNotExist"),
                bad(
                        "nodeSelector: {matchExpressions: [{key: a, operator: NotIn}]}",
                        "policy.nodeSelector.matchExpressions[0].values is empty: operator NotIn needs at least one"
                                + " value"),
                bad(
                        "nodeSelector: {matchExpressions: [{key: a, operator: Exists, values: [x]}]}",
                        "policy.nodeSelector.matchExpressions[0].values [x]: operator Exists takes no values"),
                bad("nodeSelector: {matchLabel: {a: b}}", "policy.nodeSelector: unknown key \"matchLabel\""));
    }

    private static Arguments bad(String spec, String problem) {
        return Arguments.of(spec, problem);
    }

    private static String order(String list) {
        return "policy.cpuManager.reservedCpus \"" + list + "\": CPU ranges must go upward (first-last with first <="
                + " last) and be listed in ascending order without overlap, e.g. 0-3,8 rather than 8,0-3 or 3-0";
    }

    private static String period(String value) {
        return "policy.cpuManager.reconcilePeriod \"" + value + "\": allowed a duration of at most 32 characters"
                + " such as 10s or 1m30s (units ns, us, ms, s, m, h)";
    }

    private static String annotation(String value) {
        return "policy.podLevelResources.budgetAnnotation \"" + value + "\": allowed an annotation key: an optional"
                + " DNS subdomain prefix and '/', then a name of at most 63 characters (alphanumerics, '-', '_', '.')"
                + " that starts and ends with an alphanumeric, e.g. podnuma.io/pod-resources";
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void eachBrokenRuleIsNamedWithItsFieldValueAndWhatIsAllowed(String spec, String problem) throws IOException {
        assertThat(problems(spec)).containsExactly(problem);
    }

    static Stream<String> valid() {
        return Stream.of(
                "{}",
                "priority: 0",
                "priority: 1000",
                "topologyManager: {options: {maxAllowableNumaNodes: 8}}",
                "topologyManager: {options: {maxAllowableNumaNodes: 1024}}",
                "cpuManager: {policy: static, reservedCpuCount: 1}",
                "cpuManager: {policy: static, reservedCpuCount: 8192}",
                "cpuManager: {policy: static, reservedCpus: \"0\"}",
                "cpuManager: {policy: static, reservedCpus: \"0-3,8,10-11,9999\"}",
                "cpuManager: {policy: static, reservedCpus: \"0-0,1\"}",
                "cpuManager: {reconcilePeriod: 1s}",
                "cpuManager: {reconcilePeriod: 1h}",
                "cpuManager: {reconcilePeriod: 1m30s}",
                "cpuManager: {reconcilePeriod: 0.5h}",
                "cpuManager: {reconcilePeriod: 1000000us}",
                "cpuManager: {reconcilePeriod: 59m59s1000ms}",
                "topologyManager: {policy: restricted}\n" + "cpuManager: {policy: static, reservedCpuCount: 2,"
                        + " options: {alignBySocket: true, distributeCpusAcrossNuma: true, fullPcpusOnly: true}}",
                "memoryManager: {policy: Static, reservedMemory: [{numaNode: 0, limits: {memory: 1Gi}},"
                        + " {numaNode: 1023, limits: {memory: \"1e9\", hugepages-2Mi: 512Mi, hugepages-1Gi: \"1\"}}]}",
                "memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: 0.5Gi}}]}",
                "podLevelResources: {budgetAnnotation: budget}",
                "podLevelResources: {budgetAnnotation: a.b-c.example/Pod_Res.1}",
                "podLevelResources: {enabled: false}",
                "nodeSelector: {matchLabels: {a: b}, matchExpressions: [{key: a, operator: In, values: [x]},"
                        + " {key: b, operator: DoesNotExist}]}");
    }

    @ParameterizedTest
    @MethodSource("valid")
    void whatTheCrdAllowsPasses(String spec) throws IOException {
        assertThat(problems(spec)).isEmpty();
    }

    @Test
    void everyProblemIsReportedAtOnce() throws IOException {
        assertThat(problems("priority: 2000\ncpuManager: {policy: static, reservedCpus: \"3-0\", reservedCpuCount: 0}\n"
                        + "podLevelResources: {enabled: false, budgetAnnotation: \"x y\"}"))
                .extracting(p -> p.substring(0, p.indexOf(' ')))
                .containsExactly(
                        "policy.priority",
                        "policy.cpuManager.reservedCpus",
                        "policy.cpuManager.reservedCpuCount",
                        "policy.cpuManager.reservedCpuCount",
                        "policy.podLevelResources.budgetAnnotation",
                        "policy.podLevelResources.budgetAnnotation");
    }

    @Test
    void everyCrdExampleIsValid() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("examples"))) {
            List<Path> examples =
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
            assertThat(examples).hasSizeGreaterThanOrEqualTo(5);
            for (Path p : examples) {
                NumaResourcePolicy policy = YAML.readValue(p.toFile(), NumaResourcePolicy.class);
                assertThat(PolicyValidator.validate(policy.getSpec(), "spec"))
                        .as(p.toString())
                        .isEmpty();
            }
        }
    }
}
