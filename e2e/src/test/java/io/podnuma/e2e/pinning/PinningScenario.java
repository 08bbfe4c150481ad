package io.podnuma.e2e.pinning;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.Waits;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.cpu.ProcessAffinity;
import io.podnuma.testkit.nodestate.NodeStateReads;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.prometheus.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pinning journey, one scenario for every driver: a node joins a policy; a Guaranteed pod with a pod-level budget
 * gets its bubble (its app container and native sidecar share it), a Burstable pod stays on the shared pool, a pod
 * that cannot fit is refused with a Warning Event and runs on the shared pool, the node's NumaNodeState says so; the
 * agent restarts (a rolling update) and every pin stays; then the node leaves the policy, the agent stops and every
 * container gets every CPU back. It needs two CPUs: one reserved, one for the bubble.
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
    void podsArePinnedRefusedReportedKeptAcrossARestartAndGivenBack(ControlPlane shared) throws Exception {
        try (PinningDriver d = driver(shared, workDir)) {
            String reason = d.unavailableReason();
            if (reason != null) {
                System.out.println(getClass().getSimpleName() + " skipped: " + reason);
            }
            Assumptions.assumeTrue(reason == null, () -> reason);
            run(d.controlPlane(), d);
        }
    }

    private void run(ControlPlane cp, PinningDriver d) throws Exception {
        cp.installCrds(GeneratedCrds.numaNodeStates());
        String id = UUID.randomUUID().toString().substring(0, 8);
        String ns = "e2e-" + id;
        CpuList host = CpuList.parse(d.nodeCpus());
        String node = d.joinNode(id, POLICY);
        cp.ensureNamespace(ns);
        try {
            d.startAgent(node, POLICY);
            Map<String, Long> pids = new HashMap<>();
            pids.putAll(prefixed("trader", d.run(ns, SamplePods.budgeted(node, "trader", 1))));
            pids.putAll(prefixed("web", d.run(ns, SamplePods.burstable(node, "web"))));
            Map<?, ?> first = Waits.await(
                    WAIT,
                    "the NumaNodeState to list trader and web",
                    () -> NodeStateReads.status(cp.client(), node)
                            .filter(s -> NodeStateReads.allocation(s, ns, "trader")
                                            .isPresent()
                                    && NodeStateReads.allocation(s, ns, "web").isPresent()));
            CpuList free = cpus(first, "sharedPool").minus(cpus(first, "reservedCpus"));
            pids.putAll(prefixed("trader-2", d.run(ns, SamplePods.budgeted(node, "trader-2", free.size() + 1))));

            // The refusal: a Warning Event that says where the pod runs instead.
            String warning = Waits.await(
                    WAIT,
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
            Map<?, ?> state = Waits.await(
                    WAIT,
                    "every container on its CPUs",
                    () -> NodeStateReads.status(cp.client(), node).filter(s -> pinned(s, ns, pids, host)));
            assertThat(cpus(state, "reservedCpus")).isEqualTo(CpuList.of(0));
            CpuList bubble = CpuList.parse(text(
                    NodeStateReads.allocation(state, ns, "trader").orElseThrow().get("cpus")));
            assertThat(bubble.size()).isEqualTo(1);
            assertThat(bubble.contains(0)).isFalse();
            for (String c : List.of("proxy", "engine")) {
                assertThat(text(container(state, ns, "trader", c).get("assignment")))
                        .isEqualTo("PodShared");
            }
            // The shared pool: the rest; the Burstable pod and the refused one run there.
            CpuList shared = cpus(state, "sharedPool");
            assertThat(shared).isEqualTo(host.minus(bubble));
            assertThat(text(container(state, ns, "web", "web").get("assignment")))
                    .isEqualTo("NodeShared");
            assertThat(NodeStateReads.allocation(state, ns, "trader-2")).isEmpty();
            Map<String, CpuList> wanted = Map.of(
                    "trader/proxy", bubble,
                    "trader/engine", bubble,
                    "web/web", shared,
                    "trader-2/proxy", shared,
                    "trader-2/engine", shared);
            assertAffinities(d, ns, pids, wanted, "pinned");
            assertThat(((Number) state.get("exclusiveCpus")).intValue()).isEqualTo(1);
            String metrics = d.metrics();
            assertThat(PrometheusText.sampleValue(metrics, "podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                    .isEqualTo(1.0);
            assertThat(PrometheusText.sampleValue(metrics, "podnuma_topology_manager_admission_errors_total"))
                    .isGreaterThanOrEqualTo(1.0);

            // A rolling update: the agent stops while the node stays in the policy; the next one adopts every pin.
            d.restartAgent();
            assertAffinities(d, ns, pids, wanted, "after the agent restarted");
            assertThat(PrometheusText.sampleValue(d.metrics(), "podnuma_cpu_manager_exclusive_cpu_allocation_count"))
                    .as("the new agent adopted the checkpoint")
                    .isEqualTo(1.0);
            Map<?, ?> adopted = Waits.await(
                    WAIT,
                    "the new agent's NumaNodeState",
                    () -> NodeStateReads.status(cp.client(), node)
                            .filter(s ->
                                    NodeStateReads.allocation(s, ns, "trader").isPresent()));
            assertThat(CpuList.parse(text(NodeStateReads.allocation(adopted, ns, "trader")
                            .orElseThrow()
                            .get("cpus"))))
                    .isEqualTo(bubble);

            // The node leaves the policy: the agent gives every container every CPU back and removes its report.
            d.leaveNode(node);
            d.stopAgent();
            Map<String, CpuList> everything = new HashMap<>();
            wanted.keySet().forEach(k -> everything.put(k, host));
            assertAffinities(d, ns, pids, everything, "after the node left");
            assertThat(NodeStateReads.status(cp.client(), node))
                    .as("NumaNodeState after the node left")
                    .isEmpty();
            System.out.printf(
                    "[%s] node %s: bubble %s (trader's proxy and engine), shared pool %s (web, refused trader-2);"
                            + " pins kept across an agent restart; every container back on %s%n",
                    getClass().getSimpleName(), node, bubble, shared, host);
        } finally {
            cp.kubectl("delete", "namespace", ns, "--wait=false", "--ignore-not-found");
            cp.kubectl("delete", "nns", node, "--ignore-not-found");
        }
    }

    /** Each container's CPUs, as the driver reads them (its process here; from inside the container there). */
    private static void assertAffinities(
            PinningDriver d, String ns, Map<String, Long> pids, Map<String, CpuList> wanted, String when)
            throws Exception {
        assertThat(pids.keySet()).containsExactlyInAnyOrderElementsOf(wanted.keySet());
        for (Map.Entry<String, CpuList> w : new java.util.TreeMap<>(wanted).entrySet()) {
            String[] pc = w.getKey().split("/");
            assertThat(d.affinity(ns, pc[0], pc[1], pids.get(w.getKey())))
                    .as("%s %s", w.getKey(), when)
                    .isEqualTo(w.getValue());
        }
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
                CpuList want = NodeStateReads.container(s, ns, pc[0], pc[1])
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

    private static Map<?, ?> container(Map<?, ?> status, String ns, String pod, String container) {
        return NodeStateReads.container(status, ns, pod, container)
                .orElseThrow(() -> new AssertionError("NumaNodeState has no " + pod + "/" + container));
    }

    private static CpuList cpus(Map<?, ?> status, String field) {
        return CpuList.parse(text(status.get(field)));
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }
}
