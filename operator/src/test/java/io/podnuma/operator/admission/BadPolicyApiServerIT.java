package io.podnuma.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's policies as a user applies them: {@code kubectl apply} to a real kube-apiserver with the committed
 * CRD, whose OpenAPI schema and CEL rules answer. The answer is kubectl's stderr, exactly; the policy is not stored
 * and a policy stored before is untouched. One control plane for every case.
 */
@ExtendWith(ControlPlaneExtension.class)
class BadPolicyApiServerIT {

    private static final InputKind KIND = InputKind.POLICY_API_SERVER;
    private static final String KEPT = "nothing is stored; the policies already stored are unchanged";
    private static final String KEEPER = """
            apiVersion: podnuma.io/v1alpha1
            kind: NumaResourcePolicy
            metadata:
              name: keeper
            spec:
              nodeSelector: {matchLabels: {podnuma.io/pool: latency}}
              cpuManager: {policy: static, reservedCpuCount: 2}
            """;

    @BeforeAll
    static void installCrdsAndAKeeper(ControlPlane plane) {
        plane.installCrds(GeneratedCrds.numaResourcePolicies(), GeneratedCrds.numaNodeStates());
        CommandResult keeper = plane.kubectlWithStdin(KEEPER, "apply", "-f", "-");
        assertThat(keeper.exitCode()).as(keeper.stderr()).isZero();
    }

    static List<BadInput> cases() {
        return List.of(
                c(
                        "api-cpu-policy-unknown",
                        "an unknown CPU manager policy",
                        "cpuManager: {policy: dynamic}",
                        "The NumaResourcePolicy \"api-cpu-policy-unknown\" is invalid: ",
                        "* spec.cpuManager.policy: Unsupported value: \"dynamic\": supported values: \"none\", \"static\"",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
                c(
                        "api-topology-policy-unknown",
                        "an unknown topology policy",
                        "topologyManager: {policy: strict}",
                        "The NumaResourcePolicy \"api-topology-policy-unknown\" is invalid: ",
                        "* spec.topologyManager.policy: Unsupported value: \"strict\": supported values: \"best-effort\", \"none\", \"restricted\", \"single-numa-node\"",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
                c(
                        "api-scope-unknown",
                        "an unknown topology scope",
                        "topologyManager: {scope: node}",
                        "The NumaResourcePolicy \"api-scope-unknown\" is invalid: ",
                        "* spec.topologyManager.scope: Unsupported value: \"node\": supported values: \"container\", \"pod\"",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
                c(
                        "api-memory-policy-lowercase",
                        "the memory policy in the CPU policy's case",
                        "memoryManager: {policy: static}",
                        "The NumaResourcePolicy \"api-memory-policy-lowercase\" is invalid: ",
                        "* spec.memoryManager.policy: Unsupported value: \"static\": supported values: \"None\", \"Static\"",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
                c(
                        "api-admission-unknown",
                        "an unknown admission action",
                        "admission: Deny",
                        "The NumaResourcePolicy \"api-admission-unknown\" is invalid: ",
                        "* spec.admission: Unsupported value: \"Deny\": supported values: \"Evict\", \"Warn\"",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
                c(
                        "api-unknown-field",
                        "a field the spec does not have",
                        "cpuManager: {policy: none, reservedCores: 2}",
                        "Error from server (BadRequest): error when creating \"STDIN\": NumaResourcePolicy in version \"v1alpha1\" cannot be handled as a NumaResourcePolicy: strict decoding error: unknown field \"spec.cpuManager.reservedCores\""),
                c(
                        "api-wrong-type",
                        "a list where a string goes",
                        "cpuManager: {policy: static, reservedCpus: [0, 1]}",
                        "The NumaResourcePolicy \"api-wrong-type\" is invalid: ",
                        "* spec.cpuManager.reservedCpus: Invalid value: \"array\": spec.cpuManager.reservedCpus in body must be of type string: \"array\"",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
                object(
                        "api-missing-spec",
                        "no spec",
                        "",
                        "The NumaResourcePolicy \"api-missing-spec\" is invalid: spec: Required value: spec is required: spec.nodeSelector picks the nodes the policy governs ({} for every node)"),
                object(
                        "api-missing-node-selector",
                        "no nodeSelector",
                        "spec:\n  cpuManager: {policy: none}\n",
                        "The NumaResourcePolicy \"api-missing-node-selector\" is invalid: ",
                        "* spec.nodeSelector: Required value",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
                c(
                        "api-priority-negative",
                        "priority below 0",
                        "priority: -1",
                        "The NumaResourcePolicy \"api-priority-negative\" is invalid: spec.priority: Invalid value: -1: spec.priority in body should be greater than or equal to 0"),
                c(
                        "api-max-numa-below-8",
                        "maxAllowableNumaNodes below 8",
                        "topologyManager: {options: {maxAllowableNumaNodes: 4}}",
                        "The NumaResourcePolicy \"api-max-numa-below-8\" is invalid: spec.topologyManager.options.maxAllowableNumaNodes: Invalid value: 4: spec.topologyManager.options.maxAllowableNumaNodes in body should be greater than or equal to 8"),
                c(
                        "api-reserved-count-zero",
                        "reservedCpuCount 0",
                        "cpuManager: {policy: static, reservedCpuCount: 0}",
                        "The NumaResourcePolicy \"api-reserved-count-zero\" is invalid: spec.cpuManager.reservedCpuCount: Invalid value: 0: spec.cpuManager.reservedCpuCount in body should be greater than or equal to 1"),
                c(
                        "api-reserved-both",
                        "reservedCpus and reservedCpuCount together",
                        "cpuManager: {policy: static, reservedCpus: \"0-1\", reservedCpuCount: 2}",
                        "The NumaResourcePolicy \"api-reserved-both\" is invalid: spec.cpuManager.reservedCpuCount: Invalid value: set at most one of reservedCpus and reservedCpuCount"),
                c(
                        "api-static-without-reservation",
                        "static CPU policy reserving nothing",
                        "cpuManager: {policy: static}",
                        "The NumaResourcePolicy \"api-static-without-reservation\" is invalid: spec.cpuManager.reservedCpus: Required value: the static policy needs CPUs reserved for the system: set reservedCpus or reservedCpuCount"),
                c(
                        "api-reserved-cpus-syntax",
                        "reservedCpus not a CPU list",
                        "cpuManager: {policy: static, reservedCpus: \"0-\"}",
                        "The NumaResourcePolicy \"api-reserved-cpus-syntax\" is invalid: spec.cpuManager.reservedCpus: Invalid value: \"0-\": must be a Linux CPU list such as 0-3,8,10-11: CPU ids (0-9999) or first-last ranges, separated by commas"),
                c(
                        "api-reserved-cpus-descending",
                        "reservedCpus not ascending",
                        "cpuManager: {policy: static, reservedCpus: \"3,1\"}",
                        "The NumaResourcePolicy \"api-reserved-cpus-descending\" is invalid: spec.cpuManager.reservedCpus: Invalid value: \"3,1\": CPU ranges must go upward (first-last with first <= last) and be listed in ascending order without overlap, e.g. 0-3,8 rather than 8,0-3 or 3-0"),
                c(
                        "api-reconcile-no-unit",
                        "reconcilePeriod without a unit",
                        "cpuManager: {reconcilePeriod: \"10\"}",
                        "The NumaResourcePolicy \"api-reconcile-no-unit\" is invalid: spec.cpuManager.reconcilePeriod: Invalid value: \"10\": spec.cpuManager.reconcilePeriod in body should match '^([0-9]+([.][0-9]+)?(ns|us|ms|s|m|h))+$'"),
                c(
                        "api-reconcile-too-long",
                        "reconcilePeriod above 1h",
                        "cpuManager: {reconcilePeriod: 2h}",
                        "The NumaResourcePolicy \"api-reconcile-too-long\" is invalid: spec.cpuManager.reconcilePeriod: Invalid value: \"2h\": must be between 1s and 1h"),
                c(
                        "api-options-without-static",
                        "CPU options with policy none",
                        "cpuManager: {options: {fullPcpusOnly: true}}",
                        "The NumaResourcePolicy \"api-options-without-static\" is invalid: spec.cpuManager.options: Invalid value: options need policy static: the kubelet applies them to the static policy only"),
                c(
                        "api-partition-without-static",
                        "cpuset partitions with policy none",
                        "cpuManager: {partition: isolated}",
                        "The NumaResourcePolicy \"api-partition-without-static\" is invalid: spec.cpuManager.partition: Invalid value: partition needs policy static: only the static policy has exclusive slices to partition"),
                c(
                        "api-cores-with-full-pcpus",
                        "two options the kubelet refuses together",
                        "cpuManager: {policy: static, reservedCpuCount: 2, options: {distributeCpusAcrossCores: true, fullPcpusOnly: true}}",
                        "The NumaResourcePolicy \"api-cores-with-full-pcpus\" is invalid: spec.cpuManager.options.distributeCpusAcrossCores: Invalid value: distributeCpusAcrossCores and fullPcpusOnly cannot be used together: one spreads a container over cores, the other gives it whole cores"),
                c(
                        "api-align-socket-single-numa",
                        "alignBySocket with single-numa-node",
                        "topologyManager: {policy: single-numa-node}\n  cpuManager: {policy: static, reservedCpuCount: 2, options: {alignBySocket: true}}",
                        "The NumaResourcePolicy \"api-align-socket-single-numa\" is invalid: spec.cpuManager.options.alignBySocket: Invalid value: alignBySocket cannot be used with topologyManager.policy single-numa-node: the kubelet rejects this pair, a single NUMA node is already the narrower boundary"),
                c(
                        "api-memory-static-no-memory",
                        "Static memory policy reserving huge pages only",
                        "memoryManager: {policy: Static, reservedMemory: [{numaNode: 0, limits: {hugepages-2Mi: 2Mi}}]}",
                        "The NumaResourcePolicy \"api-memory-static-no-memory\" is invalid: spec.memoryManager.reservedMemory: Required value: the Static policy needs memory reserved for the system: add a reservedMemory entry with a memory limit for at least one NUMA node"),
                c(
                        "api-reserved-memory-duplicate",
                        "two reservations for one NUMA node",
                        "memoryManager: {reservedMemory: [{numaNode: 0, limits: {memory: 1Gi}}, {numaNode: 0, limits: {memory: 1Gi}}]}",
                        "The NumaResourcePolicy \"api-reserved-memory-duplicate\" is invalid: spec.memoryManager.reservedMemory[1]: Duplicate value: {\"numaNode\":0}"),
                c(
                        "api-reserved-memory-resource",
                        "a resource that cannot be reserved",
                        "memoryManager: {reservedMemory: [{numaNode: 0, limits: {cpu: \"1\"}}]}",
                        "The NumaResourcePolicy \"api-reserved-memory-resource\" is invalid: spec.memoryManager.reservedMemory[0].limits: Invalid value: only memory and hugepages-<size> (e.g. hugepages-2Mi, hugepages-1Gi) can be reserved"),
                c(
                        "api-budget-while-disabled",
                        "a budget annotation with pod-level resources off",
                        "podLevelResources: {enabled: false, budgetAnnotation: example.com/budget}",
                        "The NumaResourcePolicy \"api-budget-while-disabled\" is invalid: spec.podLevelResources.budgetAnnotation: Invalid value: budgetAnnotation is only read when enabled is true"),
                selector(
                        "api-selector-operator-unknown",
                        "a selector operator Kubernetes does not have",
                        "{matchExpressions: [{key: podnuma.io/pool, operator: Equals, values: [latency]}]}",
                        "The NumaResourcePolicy \"api-selector-operator-unknown\" is invalid: spec.nodeSelector: Invalid value: matchExpressions operator must be one of In, NotIn, Exists, DoesNotExist"),
                selector(
                        "api-selector-in-without-values",
                        "In without values",
                        "{matchExpressions: [{key: podnuma.io/pool, operator: In}]}",
                        "The NumaResourcePolicy \"api-selector-in-without-values\" is invalid: spec.nodeSelector: Invalid value: matchExpressions with operator In or NotIn need at least one value"),
                c(
                        "api-three-mistakes",
                        "three mistakes: two enums and a range",
                        "priority: 5000\n  topologyManager: {policy: strict}\n  cpuManager: {policy: dynamic}",
                        "The NumaResourcePolicy \"api-three-mistakes\" is invalid: ",
                        "* spec.cpuManager.policy: Unsupported value: \"dynamic\": supported values: \"none\", \"static\"",
                        "* spec.priority: Invalid value: 5000: spec.priority in body should be less than or equal to 1000",
                        "* spec.topologyManager.policy: Unsupported value: \"strict\": supported values: \"best-effort\", \"none\", \"restricted\", \"single-numa-node\"",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
                c(
                        "api-five-mistakes",
                        "five mistakes of every sort",
                        "priority: -3\n  topologyManager: {scope: node}\n  cpuManager: {policy: static, reservedCpus: \"5-2\", reservedCpuCount: 0}\n  memoryManager: {reservedMemory: [{numaNode: 2000, limits: {memory: 1Gi}}]}",
                        "The NumaResourcePolicy \"api-five-mistakes\" is invalid: ",
                        "* spec.cpuManager.reservedCpuCount: Invalid value: 0: spec.cpuManager.reservedCpuCount in body should be greater than or equal to 1",
                        "* spec.memoryManager.reservedMemory[0].numaNode: Invalid value: 2000: spec.memoryManager.reservedMemory[0].numaNode in body should be less than or equal to 1023",
                        "* spec.priority: Invalid value: -3: spec.priority in body should be greater than or equal to 0",
                        "* spec.topologyManager.scope: Unsupported value: \"node\": supported values: \"container\", \"pod\"",
                        "* <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"));
    }

    /** A policy named {@code id} selecting the latency pool, with {@code specLines} beside its selector. */
    private static BadInput c(String id, String wrong, String specLines, String... answer) {
        return object(
                id,
                wrong,
                "spec:\n  nodeSelector: {matchLabels: {podnuma.io/pool: latency}}\n  " + specLines + "\n",
                answer);
    }

    private static BadInput selector(String id, String wrong, String selector, String... answer) {
        return object(id, wrong, "spec:\n  nodeSelector: " + selector + "\n", answer);
    }

    private static BadInput object(String id, String wrong, String body, String... answer) {
        String yaml =
                "apiVersion: podnuma.io/v1alpha1\nkind: NumaResourcePolicy\nmetadata:\n  name: " + id + "\n" + body;
        return new BadInput(id, KIND, wrong, yaml, List.of(answer), KEPT);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theApiServerAnswersExactlyAndStoresNothing(BadInput c, ControlPlane plane) {
        String keeperBefore = resourceVersion(plane, "keeper");

        CommandResult applied = plane.kubectlWithStdin(c.input(), "apply", "-f", "-");

        assertThat(applied.exitCode())
                .as("kubectl apply of %s: %s", c.id(), applied.stdout())
                .isNotZero();
        c.assertAnswer(sorted(applied.stderr().strip().lines().toList()));
        CommandResult stored = plane.kubectl("get", "nrp", c.id(), "--ignore-not-found", "-o", "name");
        assertThat(stored.stdout()).as("%s stored", c.id()).isBlank();
        assertThat(resourceVersion(plane, "keeper")).isEqualTo(keeperBefore);
    }

    /**
     * The API server lists a policy's schema errors in no fixed order (from one request to the next): its
     * {@code * field: ...} lines sorted, the note on the rules it skipped last, the headline first.
     */
    private static List<String> sorted(List<String> lines) {
        List<String> items = new java.util.ArrayList<>(
                lines.stream().filter(l -> l.startsWith("* spec")).sorted().toList());
        List<String> out = new java.util.ArrayList<>();
        lines.stream().filter(l -> !l.startsWith("* ")).forEach(out::add);
        out.addAll(Math.min(1, out.size()), items);
        lines.stream()
                .filter(l -> l.startsWith("* ") && !l.startsWith("* spec"))
                .forEach(out::add);
        return out;
    }

    private static String resourceVersion(ControlPlane plane, String name) {
        CommandResult r = plane.kubectl("get", "nrp", name, "-o", "jsonpath={.metadata.resourceVersion}");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return r.stdout().strip();
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "operator", getClass().getSimpleName()))
                .isNull();
    }
}
