package io.podnuma.e2e.pinning;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.cpu.ProcessAffinity;
import io.podnuma.testkit.pods.RunningPods;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pinning journey, one scenario for every driver: a node joins a policy; a Guaranteed pod with a pod-level budget
 * gets its bubble (its app container and native sidecar share it), a Burstable pod stays on the shared pool, a pod
 * that cannot fit is refused with a Warning Event and runs on the shared pool, the node's NumaNodeState says so;
 * then the node leaves the policy, the agent stops and every container gets every CPU back.
 */
@ExtendWith(ControlPlaneExtension.class)
abstract class PinningScenario {

    static final String POLICY = "e2e-pod-scope";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path workDir;

    /** The driver under test, made once per test. */
    protected abstract PinningDriver driver(ControlPlane cp, Path workDir);

    @Test
    void podsArePinnedRefusedReportedAndGivenBack(ControlPlane cp) throws Exception {
        try (PinningDriver d = driver(cp, workDir)) {
            String reason = d.unavailableReason();
            if (reason != null) {
                System.out.println(getClass().getSimpleName() + " skipped: " + reason);
            }
            Assumptions.assumeTrue(reason == null, () -> reason);
            run(cp, d);
        }
    }

    private void run(ControlPlane cp, PinningDriver d) throws Exception {
        cp.installCrds(GeneratedCrds.numaNodeStates());
        String id = UUID.randomUUID().toString().substring(0, 8);
        String node = "e2e-" + id;
        String ns = "e2e-" + id;
        CpuList host = CpuList.parse(d.nodeCpus());
        cp.ensureNode(
                node,
                Map.of("podnuma.io/policy", POLICY),
                Map.of("cpu", Integer.toString(host.size()), "memory", "8Gi", "pods", "110"));
        cp.ensureNamespace(ns);
        try {
            d.startAgent(node, POLICY);
            Map<String, Long> pids = new HashMap<>();
            pids.putAll(prefixed("trader", d.runContainers(running(cp, ns, SamplePods.budgeted(node, "trader", 1)))));
            pids.putAll(prefixed("web", d.runContainers(running(cp, ns, SamplePods.burstable(node, "web")))));
            Map<?, ?> first = await(
                    "the NumaNodeState to list trader and web",
                    () -> status(cp, node)
                            .filter(s -> pod(s, ns, "trader").isPresent()
                                    && pod(s, ns, "web").isPresent()));
            CpuList free = cpus(first, "sharedPool").minus(cpus(first, "reservedCpus"));
            pids.putAll(prefixed(
                    "trader-2",
                    d.runContainers(running(cp, ns, SamplePods.budgeted(node, "trader-2", free.size() + 1)))));

            // The refusal: a Warning Event that says where the pod runs instead.
            String warning = await(
                    "a Warning Event on trader-2",
                    () -> cp.client().v1().events().inNamespace(ns).list().getItems().stream()
                            .filter(e -> "trader-2".equals(e.getInvolvedObject().getName()))
                            .filter(e -> "Warning".equals(e.getType()))
                            .map(e -> e.getReason() + ": " + e.getMessage())
                            .findFirst());
            assertThat(warning)
                    .containsAnyOf("TopologyAffinityError", "UnexpectedAdmissionError")
                    .contains("it runs in the node's shared pool");

            // The bubble: one CPU, not the reserved one, shared by the app container and its sidecar.
            Map<?, ?> state =
                    await("every container on its CPUs", () -> status(cp, node).filter(s -> pinned(s, ns, pids, host)));
            assertThat(cpus(state, "reservedCpus")).isEqualTo(CpuList.of(0));
            CpuList bubble =
                    CpuList.parse(text(pod(state, ns, "trader").orElseThrow().get("cpus")));
            assertThat(bubble.size()).isEqualTo(1);
            assertThat(bubble.contains(0)).isFalse();
            for (String c : List.of("proxy", "engine")) {
                assertThat(text(container(state, ns, "trader", c).get("assignment")))
                        .isEqualTo("PodShared");
                assertThat(ProcessAffinity.allowedCpus(pids.get("trader/" + c))).isEqualTo(bubble);
            }
            // The shared pool: the rest; the Burstable pod and the refused one run there.
            CpuList shared = cpus(state, "sharedPool");
            assertThat(shared).isEqualTo(host.minus(bubble));
            assertThat(text(container(state, ns, "web", "web").get("assignment")))
                    .isEqualTo("NodeShared");
            assertThat(pod(state, ns, "trader-2")).isEmpty();
            for (String p : List.of("web/web", "trader-2/proxy", "trader-2/engine")) {
                assertThat(ProcessAffinity.allowedCpus(pids.get(p))).as(p).isEqualTo(shared);
            }
            assertThat(((Number) state.get("exclusiveCpus")).intValue()).isEqualTo(1);
            String metrics = d.metrics();
            assertThat(PrometheusText.sampleValue(metrics, "podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                    .isEqualTo(1.0);
            assertThat(PrometheusText.sampleValue(metrics, "podnuma_topology_manager_admission_errors_total"))
                    .isGreaterThanOrEqualTo(1.0);

            // The node leaves the policy: the agent gives every container every CPU back and removes its report.
            cp.kubectl("label", "node", node, "podnuma.io/policy-").assertSuccess();
            d.stopAgent();
            for (Map.Entry<String, Long> p : pids.entrySet()) {
                assertThat(ProcessAffinity.allowedCpus(p.getValue()))
                        .as("%s after the node left", p.getKey())
                        .isEqualTo(host);
            }
            assertThat(status(cp, node)).as("NumaNodeState after the node left").isEmpty();
        } finally {
            cp.kubectl("delete", "namespace", ns, "--wait=false", "--ignore-not-found");
            cp.kubectl("delete", "node", node, "--wait=false", "--ignore-not-found");
            cp.kubectl("delete", "nns", node, "--ignore-not-found");
        }
    }

    private static Pod running(ControlPlane cp, String ns, Pod pod) throws InterruptedException {
        return RunningPods.createRunning(cp, ns, pod);
    }

    private static Map<String, Long> prefixed(String pod, Map<String, Long> byContainer) {
        Map<String, Long> out = new HashMap<>();
        byContainer.forEach((c, pid) -> out.put(pod + "/" + c, pid));
        return out;
    }

    /** Every process runs where the node state puts its container, or on the shared pool when it is not there. */
    private static boolean pinned(Map<?, ?> s, String ns, Map<String, Long> pids, CpuList host) {
        try {
            for (Map.Entry<String, Long> p : pids.entrySet()) {
                String[] pc = p.getKey().split("/");
                CpuList want = containerOf(s, ns, pc[0], pc[1])
                        .map(c -> CpuList.parse(text(c.get("cpus"))))
                        .orElse(cpus(s, "sharedPool"));
                if (!ProcessAffinity.allowedCpus(p.getValue()).equals(want)) {
                    return false;
                }
            }
            return true;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Optional<Map<?, ?>> status(ControlPlane cp, String node) {
        GenericKubernetesResource r = cp.client()
                .genericKubernetesResources("podnuma.io/v1alpha1", "NumaNodeState")
                .withName(node)
                .get();
        return r != null && r.getAdditionalProperties().get("status") instanceof Map<?, ?> s
                ? Optional.<Map<?, ?>>of(s)
                : Optional.empty();
    }

    private static Optional<Map<?, ?>> pod(Map<?, ?> status, String ns, String name) {
        if (!(status.get("allocations") instanceof List<?> pods)) {
            return Optional.empty();
        }
        return pods.stream()
                .<Map<?, ?>>map(p -> (Map<?, ?>) p)
                .filter(p -> ns.equals(p.get("namespace")) && name.equals(p.get("name")))
                .findFirst();
    }

    private static Optional<Map<?, ?>> containerOf(Map<?, ?> status, String ns, String pod, String container) {
        return pod(status, ns, pod)
                .flatMap(p -> p.get("containers") instanceof List<?> cs
                        ? cs.stream()
                                .<Map<?, ?>>map(c -> (Map<?, ?>) c)
                                .filter(c -> container.equals(c.get("name")))
                                .findFirst()
                        : Optional.empty());
    }

    private static Map<?, ?> container(Map<?, ?> status, String ns, String pod, String container) {
        return containerOf(status, ns, pod, container)
                .orElseThrow(() -> new AssertionError("NumaNodeState has no " + pod + "/" + container));
    }

    private static CpuList cpus(Map<?, ?> status, String field) {
        return CpuList.parse(text(status.get(field)));
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }

    private static <T> T await(String what, Supplier<Optional<T>> read) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<T> v = read.get();
            if (v.isPresent()) {
                return v.get();
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new AssertionError("timed out after " + WAIT.toSeconds() + " s waiting for " + what);
    }
}
