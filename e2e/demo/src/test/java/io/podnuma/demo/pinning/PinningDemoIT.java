package io.podnuma.demo.pinning;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.testkit.GeneratedCrds;
import io.podnuma.testkit.Repository;
import io.podnuma.testkit.cpu.CpuList;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The README demo's pinning part against the real control plane, the real agent process and this host's cgroup v1
 * cpuset hierarchy: checks what its table and listings show (not how they are printed).
 */
@ExtendWith(ControlPlaneExtension.class)
class PinningDemoIT {

    static final String POLICY = "pod-scope-hybrid";

    @BeforeAll
    static void crdsAndPolicy(ControlPlane cp) {
        cp.installCrds(GeneratedCrds.numaResourcePolicies(), GeneratedCrds.numaNodeStates());
        cp.kubectl(
                        "apply",
                        "-f",
                        Repository.resolve("crds/examples/" + POLICY + ".yaml").toString())
                .assertSuccess();
    }

    @Test
    void pinsRealProcessesReportsThemAndGivesEverythingBack(ControlPlane cp) throws Exception {
        Optional<String> cannot = PinningDemo.unavailable();
        cannot.ifPresent(reason -> System.out.println("PinningDemoIT skipped: " + reason));
        Assumptions.assumeTrue(cannot.isEmpty(), () -> cannot.orElseThrow());
        String id = UUID.randomUUID().toString().substring(0, 8);
        String ns = "pin-demo-" + id;
        PinningReport r =
                new PinningDemo(cp, new PinningDemo.Settings("pin-demo-" + id, ns, POLICY, "0"), System.out).run();

        CpuList hostCpus = r.hostCpus();
        CpuList hostMems = CpuList.parse(Files.readString(HostCheck.CPUSET_V1.resolve("cpuset.effective_mems")));
        NodeStateView state = r.nodeState();
        assertThat(state.reservedCpus()).isEqualTo(CpuList.of(0));

        // The budgeted pod: one bubble CPU, not the reserved one, shared by the app container and its sidecar.
        CpuList bubble = state.pod(ns, "trader").orElseThrow().bubble().orElseThrow();
        assertThat(bubble.size()).isEqualTo(1);
        assertThat(bubble.contains(0)).isFalse();
        for (String container : List.of("proxy", "engine")) {
            PinnedProcess p = r.pinned("trader", container);
            assertThat(p.qos()).isEqualTo("Guaranteed");
            assertThat(p.decision()).isEqualTo(Decision.POD_SHARED);
            assertThat(p.affinity().cpus())
                    .as("trader/%s runs in the bubble", container)
                    .isEqualTo(bubble);
        }

        // The shared pool: everything but the bubble; the Burstable pod runs there.
        assertThat(state.sharedPool()).isEqualTo(hostCpus.minus(bubble));
        PinnedProcess web = r.pinned("web", "web");
        assertThat(web.qos()).isEqualTo("Burstable");
        assertThat(web.decision()).isEqualTo(Decision.NODE_SHARED);
        assertThat(web.affinity().cpus()).isEqualTo(state.sharedPool());

        // The pod that cannot fit: refused with a Warning Event, not in the node state, running on the shared pool.
        assertThat(state.pod(ns, "trader-2")).isEmpty();
        assertThat(r.refusal())
                .hasValueSatisfying(e -> assertThat(e)
                        .containsAnyOf("TopologyAffinityError", "UnexpectedAdmissionError")
                        .contains("it runs in the node's shared pool"));
        for (String container : List.of("proxy", "engine")) {
            PinnedProcess p = r.pinned("trader-2", container);
            assertThat(p.decision()).isEqualTo(Decision.REFUSED);
            assertThat(p.affinity().cpus()).isEqualTo(state.sharedPool());
        }
        // No memory manager in this policy: shared containers keep every memory node, the bubble's some of them.
        assertThat(r.pinned())
                .hasSize(5)
                .allSatisfy(
                        p -> assertThat(p.affinity().mems().ids()).isNotEmpty().isSubsetOf(hostMems.ids()));
        assertThat(List.of(web, r.pinned("trader-2", "engine")))
                .allSatisfy(p -> assertThat(p.affinity().mems()).isEqualTo(hostMems));

        assertThat(state.exclusiveCpus()).isEqualTo(bubble.size());
        assertThat(r.exclusiveCpuCount()).isEqualTo(bubble.size());
        assertThat(r.pinLatencyCount()).as("every container seen and written").isGreaterThanOrEqualTo(5);

        PodResources trader = podResources(r, ns, "trader");
        assertThat(trader.getCpuIdsList()).as("pod-level cpu_ids: the bubble").containsExactlyElementsOf(ids(bubble));
        assertThat(podResources(r, ns, "web").getCpuIdsList()).isEmpty();

        // The operator counted the node: matched, updated (kwok runs the DaemonSet's pod), ready on the config it
        // rendered, with the agent's figures.
        assertThat(r.policyStatus()).as("the demo policy's status").isNotNull();
        assertThat(r.policyStatus().nodesMatched()).isEqualTo(1);
        assertThat(r.policyStatus().nodesReady()).isEqualTo(1);
        assertThat(r.policyStatus().exclusiveCpusAllocated()).isEqualTo(bubble.size());
        assertThat(r.policyStatus().conditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
        });

        // The policy was deleted: the operator unlabelled the node, the agent stopped and gave everything back on
        // every CPU, its report object went, and then the operator let the policy go.
        assertThat(r.agentExitCode()).as("128 + SIGTERM").isEqualTo(143);
        assertThat(r.restored())
                .hasSize(5)
                .allSatisfy(p -> assertThat(p.affinity().cpus()).isEqualTo(hostCpus));
        assertThat(r.nodeStateAfterStop()).isEmpty();
        assertThat(r.policyGone())
                .as("the finalizer released after the restore")
                .isTrue();

        // Clean-up: no process of the demo runs, its cgroup subtree is gone.
        assertThat(Files.exists(r.cgroupRoot())).isFalse();
        for (PinnedProcess p : r.pinned()) {
            assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive).orElse(false))
                    .as("pid %d of %s/%s", p.pid(), p.pod(), p.container())
                    .isFalse();
        }
    }

    private static PodResources podResources(PinningReport r, String ns, String name) {
        return r.podResources().getPodResourcesList().stream()
                .filter(p -> p.getNamespace().equals(ns) && p.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("PodResources List has no " + ns + "/" + name));
    }

    private static List<Long> ids(CpuList cpus) {
        return cpus.ids().stream().map(Integer::longValue).toList();
    }
}
