package io.podnuma.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.agent.cgroup.CgroupDriver;
import io.podnuma.agent.cgroup.CgroupNaming;
import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.ContainerCgroup;
import io.podnuma.agent.cgroup.ContainerId;
import io.podnuma.agent.cgroup.watch.FoundContainer;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.runtime.core.Pin;
import io.podnuma.agent.sysfs.SysfsTopologyReader;
import io.podnuma.agent.testing.AgentConfigs;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.testkit.agent.SampleConfigs;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's pod specs and budget annotations, as the running agent meets them: a pod it cannot read is refused
 * with a Warning Event naming the field and value (it stays on the shared pool), and the pod already running keeps
 * its CPUs, its cgroup and its place in the node state.
 */
class BadPodSpecCasesTest {

    private static final InputKind KIND = InputKind.POD_SPEC;
    private static final String KEY = "podnuma.io/pod-resources";
    private static final String KEPT = "the pod stays on the shared pool, not in the node state; the running pod keeps"
            + " its CPUs, cgroup and allocation";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path stateDir;

    private final CpuTopology topo = readTopology();
    private final CgroupNaming naming = new CgroupNaming(CgroupDriver.CGROUPFS);
    private final FakePods pods = new FakePods();
    private final FakeCgroups cgroups = new FakeCgroups(new Random(1));
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final List<FoundContainer> onHost = Collections.synchronizedList(new ArrayList<>());
    private NodeAgent agent;

    @AfterEach
    void close() {
        if (agent != null) {
            agent.close();
        }
    }

    static List<BadInput> cases() {
        return List.of(
                container(
                        "pod-cpu-not-quantity",
                        "a CPU limit that is no quantity",
                        "limits: {cpu: lots}",
                        "pod unit/bad Warning PodSpecUnreadable: spec.containers[app].resources.limits.cpu \"lots\" is not a valid CPU quantity: use whole or decimal cores (2, 1.5) or millicores (500m); it runs in the node's shared pool"),
                container(
                        "pod-memory-not-quantity",
                        "a memory request that is no quantity",
                        "requests: {memory: much}",
                        "pod unit/bad Warning PodSpecUnreadable: spec.containers[app].resources.requests.memory \"much\" is not a valid memory quantity: it does not start with a number; it runs in the node's shared pool"),
                container(
                        "pod-cpu-negative",
                        "a negative CPU limit",
                        "limits: {cpu: \"-1\"}",
                        "pod unit/bad Warning PodSpecUnreadable: spec.containers[app].resources.limits.cpu \"-1\" is not a valid CPU quantity: CPU cannot be negative; it runs in the node's shared pool"),
                container(
                        "pod-request-above-limit",
                        "a request above its limit",
                        "requests: {cpu: \"2\"}\nlimits: {cpu: \"1\"}",
                        "pod unit/bad Warning PodSpecUnreadable: spec.containers[app].resources.requests.cpu 2 must be less than or equal to spec.containers[app].resources.limits.cpu 1; it runs in the node's shared pool"),
                container(
                        "pod-hugepages-not-quantity",
                        "a huge-page limit that is no quantity",
                        "limits: {hugepages-2Mi: big}",
                        "pod unit/bad Warning PodSpecUnreadable: spec.containers[app].resources.limits.hugepages-2Mi \"big\" is not a valid memory quantity: it does not start with a number; it runs in the node's shared pool"),
                container(
                        "pod-hugepages-size",
                        "a huge-page size that is no size",
                        "limits: {hugepages-big: 1Gi}",
                        "pod unit/bad Warning PodSpecUnreadable: spec.containers[app].resources.limits.hugepages-big: resource \"hugepages-big\" has no valid huge page size (huge page size \"big\" is not a valid memory quantity: it does not start with a number): allowed hugepages-<size> such as hugepages-2Mi or hugepages-1Gi; it runs in the node's shared pool"),
                podLevel(
                        "pod-level-cpu-not-quantity",
                        "a pod-level CPU limit that is no quantity",
                        "limits: {cpu: \"4x\", memory: 1Gi}",
                        "pod unit/bad Warning PodSpecUnreadable: spec.resources.limits.cpu \"4x\" is not a valid CPU quantity: use whole or decimal cores (2, 1.5) or millicores (500m); it runs in the node's shared pool"),
                podLevel(
                        "pod-level-request-above-limit",
                        "a pod-level request above its limit",
                        "requests: {memory: 2Gi}\nlimits: {cpu: \"4\", memory: 1Gi}",
                        "pod unit/bad Warning PodSpecUnreadable: spec.resources.requests.memory 2Gi must be less than or equal to spec.resources.limits.memory 1Gi; it runs in the node's shared pool"),
                budget(
                        "budget-not-json",
                        "the budget annotation is not JSON",
                        "cpu=8",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources] is not valid JSON (Unrecognized token 'cpu': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')): expected an object like {\"requests\":{\"cpu\":\"8\",\"memory\":\"16Gi\"},\"limits\":{...}}; it runs in the node's shared pool"),
                budget(
                        "budget-array",
                        "the budget annotation is a JSON array",
                        "[]",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources] must be a JSON object with requests and/or limits, got: []; it runs in the node's shared pool"),
                budget(
                        "budget-unknown-key",
                        "a key the budget does not have",
                        "{\"limit\":{\"cpu\":\"8\"}}",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources] has an unknown key \"limit\": allowed requests and limits; it runs in the node's shared pool"),
                budget(
                        "budget-memory-not-quantity",
                        "a budget memory that is no quantity",
                        "{\"limits\":{\"cpu\":\"4\",\"memory\":\"lots\"}}",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources].limits.memory \"lots\" is not a valid memory quantity: it does not start with a number; it runs in the node's shared pool"),
                budget(
                        "budget-cpu-list",
                        "a budget CPU given as a list",
                        "{\"limits\":{\"cpu\":[1]}}",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources].limits.cpu must be a quantity string such as \"2\" or \"4Gi\", got: [1]; it runs in the node's shared pool"),
                budget(
                        "budget-empty",
                        "a budget naming neither CPU nor memory",
                        "{\"limits\":{}}",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources] names neither cpu nor memory: {\"limits\":{}}: allowed a budget with cpu and/or memory, e.g. {\"limits\":{\"cpu\":\"4\",\"memory\":\"4Gi\"}}; it runs in the node's shared pool"),
                budget(
                        "budget-unknown-resource",
                        "a budget resource the agent does not manage",
                        "{\"limits\":{\"cpu\":\"4\",\"memory\":\"1Gi\",\"gpu\":\"1\"}}",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources].limits has an unknown resource \"gpu\": allowed cpu, memory and hugepages-<size>; it runs in the node's shared pool"),
                budget(
                        "budget-request-above-limit",
                        "a budget request above its limit",
                        "{\"requests\":{\"cpu\":\"8\"},\"limits\":{\"cpu\":\"4\",\"memory\":\"1Gi\"}}",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources].requests.cpu 8 must be less than or equal to metadata.annotations[podnuma.io/pod-resources].limits.cpu 4; it runs in the node's shared pool"),
                budget(
                        "budget-duplicate-key",
                        "a key given twice in the budget",
                        "{\"limits\":{\"cpu\":\"4\",\"cpu\":\"8\",\"memory\":\"1Gi\"}}",
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources] is not valid JSON (Duplicate field 'cpu'): expected an object like {\"requests\":{\"cpu\":\"8\",\"memory\":\"16Gi\"},\"limits\":{...}}; it runs in the node's shared pool"),
                budget(
                        "budget-deep",
                        "a budget nested thousands deep",
                        "[".repeat(5000) + "]".repeat(5000),
                        "pod unit/bad Warning PodSpecUnreadable: metadata.annotations[podnuma.io/pod-resources] is not valid JSON (Document nesting depth (1001) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)): expected an object like {\"requests\":{\"cpu\":\"8\",\"memory\":\"16Gi\"},\"limits\":{...}}; it runs in the node's shared pool"));
    }

    private static BadInput container(String id, String wrong, String resources, String... answer) {
        return pod(id, wrong, "", "", resources, answer);
    }

    private static BadInput podLevel(String id, String wrong, String resources, String... answer) {
        return pod(id, wrong, "", resources, "limits: {cpu: \"1\", memory: 1Gi}", answer);
    }

    private static BadInput budget(String id, String wrong, String annotation, String... answer) {
        return pod(id, wrong, annotation, "", "limits: {cpu: \"1\", memory: 1Gi}", answer);
    }

    private static BadInput pod(
            String id,
            String wrong,
            String annotation,
            String podResources,
            String containerResources,
            String... answer) {
        StringBuilder y = new StringBuilder("apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad\n  namespace: unit\n"
                + "  uid: 00000000-0000-0000-0000-0000000000bd\n");
        if (!annotation.isEmpty()) {
            try {
                y.append("  annotations:\n    ")
                        .append(KEY)
                        .append(": ")
                        .append(new ObjectMapper().writeValueAsString(annotation))
                        .append('\n');
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        y.append("spec:\n  nodeName: unit\n");
        if (!podResources.isEmpty()) {
            y.append("  resources:\n").append(podResources.indent(4));
        }
        y.append("  containers:\n  - name: app\n    image: app\n    resources:\n")
                .append(containerResources.indent(6));
        return new BadInput(id, KIND, wrong, y.toString(), List.of(answer), KEPT);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theAgentRefusesThePodAndKeepsTheRunningOne(BadInput c) throws Exception {
        Pod keeper = keeperRunning();
        agent = agent();
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        agent.state().pods().containsKey(keeper.getMetadata().getUid()));
        CgroupPath keeperPath = onHost.getFirst().path();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cgroups.actual.get(keeperPath).cpus().size() == 4);
        var keeperPin = cgroups.actual.get(keeperPath);
        var keeperState = agent.state().pods().get(keeper.getMetadata().getUid());

        Pod bad = YAML.readValue(c.input(), Pod.class);
        pods.put(bad);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> events.stream().anyMatch(e -> e.startsWith("pod unit/bad ")));
        c.assertAnswer(
                events.stream().filter(e -> e.startsWith("pod unit/bad ")).toList());
        assertThat(agent.state().pods()).doesNotContainKey(bad.getMetadata().getUid());
        assertThat(agent.state().pods().get(keeper.getMetadata().getUid())).isEqualTo(keeperState);
        assertThat(cgroups.actual.get(keeperPath)).isEqualTo(keeperPin);
    }

    private NodeAgent agent() throws InterruptedException {
        CpuManager cpus = SampleConfigs.reservedCpus("0,64");
        NumaResourcePolicySpec base = SampleConfigs.podScopePolicy(cpus, AdmissionAction.WARN, false);
        NumaResourcePolicySpec policy = new NumaResourcePolicySpec(
                null,
                null,
                base.topologyManager(),
                base.cpuManager(),
                base.memoryManager(),
                new PodLevelResources(true, KEY),
                base.admission(),
                false);
        AgentConfig config = AgentConfigs.load(
                SampleConfigs.podScope("unit", cpus).policy(policy).build());
        NodeAgent a = new InMemoryAgent(
                        "unit", topo, config, naming, cgroups, () -> List.copyOf(onHost), stateDir, pods)
                .withEvents(new RecordingEvents(events))
                .build();
        a.start();
        assertThat(a.awaitReady(Duration.ofSeconds(10))).isTrue();
        return a;
    }

    /** A running pod with a 4-CPU budget, its container's cgroup on the fake host. */
    private Pod keeperRunning() {
        Pod p = RuntimeFixtures.withStatus(new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata()
                .withName("keeper")
                .withNamespace("unit")
                .withUid("00000000-0000-0000-0000-00000000000a")
                .withCreationTimestamp("2026-11-29T00:00:00Z")
                .endMetadata()
                .withNewSpec()
                .withNodeName("unit")
                .withResources(SamplePods.guaranteed("4", "1Gi"))
                .addNewContainer()
                .withName("app")
                .endContainer()
                .endSpec()
                .build());
        for (var s : RuntimeFixtures.allStatuses(p)) {
            ContainerCgroup cg = new ContainerCgroup(
                    RuntimeFixtures.qos(p), p.getMetadata().getUid(), ContainerId.parse(s.getContainerID()));
            CgroupPath path = naming.containerPath(cg);
            cgroups.actual.put(path, new Pin(topo.onlineCpus(), CpuSet.of(0, 1)));
            onHost.add(new FoundContainer(cg, path));
        }
        pods.put(p);
        return p;
    }

    private static CpuTopology readTopology() {
        try {
            return new SysfsTopologyReader(RuntimeFixtures.SYSFS).read();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
