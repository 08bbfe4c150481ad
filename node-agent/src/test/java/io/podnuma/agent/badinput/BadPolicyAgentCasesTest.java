package io.podnuma.agent.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's policies as the agent reads them from its own file ({@code policy:}), which no API server checked:
 * the binding of the spec's types and {@code PolicyValidator}, every mistake of one file in one answer.
 */
class BadPolicyAgentCasesTest {

    private static final InputKind KIND = InputKind.POLICY_AGENT;
    private static final String KEPT = "the file is unchanged; the agent does not start (it keeps no state yet)";

    @TempDir
    Path dir;

    static List<BadInput> cases() {
        return List.of(
                c(
                        "pa-cpu-policy-unknown",
                        "an unknown CPU manager policy",
                        "cpuManager:\n  policy: dynamic\n",
                        "agent.yaml: policy.cpuManager.policy \"dynamic\": allowed none, static"),
                c(
                        "pa-topology-policy-unknown",
                        "an unknown topology policy",
                        "topologyManager:\n  policy: strict\n",
                        "agent.yaml: policy.topologyManager.policy \"strict\": allowed none, best-effort, restricted, single-numa-node"),
                c(
                        "pa-scope-unknown",
                        "an unknown topology scope",
                        "topologyManager:\n  scope: node\n",
                        "agent.yaml: policy.topologyManager.scope \"node\": allowed container, pod"),
                c(
                        "pa-memory-policy-lowercase",
                        "the memory policy in the CPU policy's case",
                        "memoryManager:\n  policy: static\n",
                        "agent.yaml: policy.memoryManager.policy \"static\": allowed None, Static"),
                c(
                        "pa-admission-unknown",
                        "an unknown admission action",
                        "admission: Deny\n",
                        "agent.yaml: policy.admission \"Deny\": allowed Warn, Evict"),
                c(
                        "pa-unknown-key",
                        "a key the spec does not have",
                        "cpuManager:\n  policy: none\n  reservedCores: 2\n",
                        "agent.yaml: policy.cpuManager: unknown key \"reservedCores\": allowed options, partition, policy, reconcilePeriod, reservedCpuCount, reservedCpus"),
                c(
                        "pa-wrong-type",
                        "a list where a string goes",
                        "cpuManager:\n  policy: static\n  reservedCpus: [0, 1]\n",
                        "agent.yaml: policy.cpuManager.reservedCpus: expected a string"),
                c(
                        "pa-not-a-mapping",
                        "the policy is a string",
                        null,
                        "agent.yaml: policy must be a mapping (a NumaResourcePolicy spec), got the string \"static\""),
                c(
                        "pa-null-list-entry",
                        "an empty entry in reservedMemory",
                        "memoryManager:\n  reservedMemory: [~]\n",
                        "agent.yaml: policy.memoryManager: holds an empty (null) entry or value; give it a value or remove it"),
                c(
                        "pa-priority-negative",
                        "priority below 0",
                        "priority: -1\n",
                        "agent.yaml: policy.priority -1: allowed 0 to 1000"),
                c(
                        "pa-priority-too-high",
                        "priority above 1000",
                        "priority: 1001\n",
                        "agent.yaml: policy.priority 1001: allowed 0 to 1000"),
                c(
                        "pa-max-numa-below-8",
                        "maxAllowableNumaNodes below 8",
                        "topologyManager:\n  options:\n    maxAllowableNumaNodes: 4\n",
                        "agent.yaml: policy.topologyManager.options.maxAllowableNumaNodes 4: allowed 8 to 1024"),
                c(
                        "pa-reserved-count-zero",
                        "reservedCpuCount 0",
                        "cpuManager:\n  policy: static\n  reservedCpuCount: 0\n",
                        "agent.yaml: policy.cpuManager.reservedCpuCount 0: allowed 1 to 8192"),
                c(
                        "pa-reserved-both",
                        "reservedCpus and reservedCpuCount together",
                        "cpuManager:\n  policy: static\n  reservedCpus: \"0-1\"\n  reservedCpuCount: 2\n",
                        "agent.yaml: policy.cpuManager.reservedCpuCount 2 is set together with reservedCpus \"0-1\": allowed at most one of reservedCpus and reservedCpuCount"),
                c(
                        "pa-static-without-reservation",
                        "static CPU policy reserving nothing",
                        "cpuManager:\n  policy: static\n",
                        "agent.yaml: policy.cpuManager.reservedCpus is missing: policy static needs CPUs reserved for the system, set reservedCpus (e.g. \"0,64\") or reservedCpuCount (e.g. 2)"),
                c(
                        "pa-reserved-cpus-syntax",
                        "reservedCpus not a CPU list",
                        "cpuManager:\n  policy: static\n  reservedCpus: \"0-\"\n",
                        "agent.yaml: policy.cpuManager.reservedCpus \"0-\": allowed a Linux CPU list such as 0-3,8,10-11: CPU ids (0-9999) or first-last ranges, separated by commas"),
                c(
                        "pa-reserved-cpus-descending",
                        "reservedCpus not ascending",
                        "cpuManager:\n  policy: static\n  reservedCpus: \"3,1\"\n",
                        "agent.yaml: policy.cpuManager.reservedCpus \"3,1\": CPU ranges must go upward (first-last with first <= last) and be listed in ascending order without overlap, e.g. 0-3,8 rather than 8,0-3 or 3-0"),
                c(
                        "pa-reconcile-no-unit",
                        "reconcilePeriod without a unit",
                        "cpuManager:\n  reconcilePeriod: \"10\"\n",
                        "agent.yaml: policy.cpuManager.reconcilePeriod \"10\": allowed a duration of at most 32 characters such as 10s or 1m30s (units ns, us, ms, s, m, h)"),
                c(
                        "pa-reconcile-too-long",
                        "reconcilePeriod above 1h",
                        "cpuManager:\n  reconcilePeriod: 2h\n",
                        "agent.yaml: policy.cpuManager.reconcilePeriod \"2h\": allowed 1s to 1h"),
                c(
                        "pa-options-without-static",
                        "CPU options with policy none",
                        "cpuManager:\n  options:\n    fullPcpusOnly: true\n",
                        "agent.yaml: policy.cpuManager.options fullPcpusOnly: options need cpuManager.policy static (policy is none); the kubelet applies them to the static policy only"),
                c(
                        "pa-partition-without-static",
                        "cpuset partitions with policy none",
                        "cpuManager:\n  partition: isolated\n",
                        "agent.yaml: policy.cpuManager.partition \"isolated\": needs cpuManager.policy static (policy is none); only the static policy has exclusive slices to partition"),
                c(
                        "pa-cores-with-full-pcpus",
                        "two options the kubelet refuses together",
                        "cpuManager:\n  policy: static\n  reservedCpuCount: 2\n  options:\n    distributeCpusAcrossCores: true\n    fullPcpusOnly: true\n",
                        "agent.yaml: policy.cpuManager.options.distributeCpusAcrossCores true: not allowed with fullPcpusOnly true (the kubelet refuses the pair)"),
                c(
                        "pa-align-socket-single-numa",
                        "alignBySocket with single-numa-node",
                        "topologyManager:\n  policy: single-numa-node\ncpuManager:\n  policy: static\n  reservedCpuCount: 2\n  options:\n    alignBySocket: true\n",
                        "agent.yaml: policy.cpuManager.options.alignBySocket true: not allowed with topologyManager.policy single-numa-node (the kubelet rejects this pair; a single NUMA node is already the narrower boundary)"),
                c(
                        "pa-memory-static-no-memory",
                        "Static memory policy reserving huge pages only",
                        "memoryManager:\n  policy: Static\n  reservedMemory:\n  - numaNode: 0\n    limits:\n      hugepages-2Mi: 2Mi\n",
                        "agent.yaml: policy.memoryManager.reservedMemory has no memory limit: the Static policy needs memory reserved for the system, add an entry with a memory limit for at least one NUMA node (huge pages alone do not count)"),
                c(
                        "pa-reserved-memory-duplicate",
                        "two reservations for one NUMA node",
                        "memoryManager:\n  reservedMemory:\n  - numaNode: 0\n    limits: {memory: 1Gi}\n  - numaNode: 0\n    limits: {memory: 1Gi}\n",
                        "agent.yaml: policy.memoryManager.reservedMemory[1].numaNode 0 repeats reservedMemory[0]: allowed one entry per NUMA node"),
                c(
                        "pa-reserved-memory-resource",
                        "a resource that cannot be reserved",
                        "memoryManager:\n  reservedMemory:\n  - numaNode: 0\n    limits: {cpu: \"1\"}\n",
                        "agent.yaml: policy.memoryManager.reservedMemory[0].limits: unknown resource \"cpu\": allowed memory and hugepages-<size> (e.g. hugepages-2Mi, hugepages-1Gi)"),
                c(
                        "pa-reserved-memory-zero",
                        "a zero reservation",
                        "memoryManager:\n  reservedMemory:\n  - numaNode: 1\n    limits: {memory: \"0\"}\n",
                        "agent.yaml: policy.memoryManager.reservedMemory[0].limits.memory \"0\": allowed a positive quantity such as 1Gi or 512Mi (the kubelet rejects a zero reservation)"),
                c(
                        "pa-budget-while-disabled",
                        "a budget annotation with pod-level resources off",
                        "podLevelResources:\n  enabled: false\n  budgetAnnotation: example.com/budget\n",
                        "agent.yaml: policy.podLevelResources.budgetAnnotation \"example.com/budget\": only read when podLevelResources.enabled is true; remove it or set enabled: true"),
                c(
                        "pa-budget-key-invalid",
                        "a budget annotation that is no annotation key",
                        "podLevelResources:\n  budgetAnnotation: \"not a key\"\n",
                        "agent.yaml: policy.podLevelResources.budgetAnnotation \"not a key\": allowed an annotation key: an optional DNS subdomain prefix and '/', then a name of at most 63 characters (alphanumerics, '-', '_', '.') that starts and ends with an alphanumeric, e.g. podnuma.io/pod-resources"),
                c(
                        "pa-three-mistakes",
                        "three mistakes: two enums and a range",
                        "priority: 5000\ntopologyManager:\n  policy: strict\ncpuManager:\n  policy: dynamic\n",
                        "agent.yaml: policy.topologyManager.policy \"strict\": allowed none, best-effort, restricted, single-numa-node",
                        "agent.yaml: policy.cpuManager.policy \"dynamic\": allowed none, static",
                        "agent.yaml: policy.priority 5000: allowed 0 to 1000"),
                c(
                        "pa-five-mistakes",
                        "five mistakes of every sort",
                        "priority: -3\ntopologyManager:\n  scope: node\ncpuManager:\n  policy: static\n  reservedCpus: \"5-2\"\n  reservedCpuCount: 0\n  turbo: true\nmemoryManager:\n  reservedMemory:\n  - numaNode: 2000\n    limits: {memory: 1Gi}\n",
                        "agent.yaml: policy.topologyManager.scope \"node\": allowed container, pod",
                        "agent.yaml: policy.cpuManager: unknown key \"turbo\": allowed options, partition, policy, reconcilePeriod, reservedCpuCount, reservedCpus",
                        "agent.yaml: policy.priority -3: allowed 0 to 1000",
                        "agent.yaml: policy.cpuManager.reservedCpus \"5-2\": CPU ranges must go upward (first-last with first <= last) and be listed in ascending order without overlap, e.g. 0-3,8 rather than 8,0-3 or 3-0",
                        "agent.yaml: policy.cpuManager.reservedCpuCount 0: allowed 1 to 8192",
                        "agent.yaml: policy.cpuManager.reservedCpuCount 0 is set together with reservedCpus \"5-2\": allowed at most one of reservedCpus and reservedCpuCount",
                        "agent.yaml: policy.memoryManager.reservedMemory[0].numaNode 2000: allowed 0 to 1023"),
                c(
                        "pa-unreadable-skips-pair",
                        "a bad policy value with options that need it",
                        "cpuManager:\n  policy: dinamic\n  options:\n    fullPcpusOnly: true\n",
                        "agent.yaml: policy.cpuManager.policy \"dinamic\": allowed none, static"));
    }

    private static BadInput c(String id, String wrong, String policyBody, String... answer) {
        String yaml = policyBody == null
                ? ConfigRunner.HEADER + ConfigRunner.NODE + "policy: static\n"
                : ConfigRunner.withPolicy(policyBody);
        return new BadInput(id, KIND, wrong, yaml, List.of(answer), KEPT);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theAgentAnswersExactly(BadInput c) {
        c.assertAnswer(ConfigRunner.refused(dir, c.input(), Map.of(), Map.of()));
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
