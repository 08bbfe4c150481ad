package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ContainerResources;
import io.podnuma.podresources.v1.GetPodResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.testkit.podresources.PodResourcesGoClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upstream Go client ({@code k8s.io/kubelet} v0.37.2 PodResources types and stubs; the test kit's
 * {@link PodResourcesGoClient}) calls our real socket; the JSON it prints is what a kubelet consumer sees.
 */
class PodResourcesGoClientIT {

    // node-agent: its ITs run there (module node-agent/it sets that working directory).
    private static final Path BASEDIR = Path.of("").toAbsolutePath();

    private static PodResourcesGoClient client;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildGoClient() throws Exception {
        Optional<String> why = PodResourcesGoClient.whyUnavailable();
        if (why.isPresent()) {
            String reason = "skipped: " + why.get() + ". PodResourcesAnswersTest and PodResourcesEndpointTest still"
                    + " cover the answers over a real socket with the Java client.";
            System.out.println("PodResourcesGoClientIT " + reason);
            Assumptions.abort(reason);
        }
        client = PodResourcesGoClient.build(BASEDIR.resolve("target/podresclient"));
    }

    @Test
    void upstreamClientSeesPodLevelAndContainerResourcesExactly() throws Exception {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.POD, true),
                EngineStates.hybrid(),
                EngineStates.perContainer(),
                EngineStates.bestEffort());
        PodResourcesSnapshot snapshot = scenario.snapshot();
        Path socket = dir.resolve("podnuma.sock");
        Map<String, String> lines;
        try (PodResourcesEndpoint ignored = PodResourcesEndpoint.start(
                PodResourcesEndpoint.Settings.defaults(socket),
                new PodResourcesService(new AtomicReference<>(snapshot)::get, DeviceSource.NONE))) {
            lines = client.query(socket, "default", "hybrid");
        }
        System.out.println("PodResourcesGoClientIT: Go client printed " + lines.size() + " lines, List JSON "
                + value(lines, "List").length() + " chars");

        ListPodResourcesResponse.Builder list = ListPodResourcesResponse.newBuilder();
        JsonFormat.parser().merge(value(lines, "List"), list);
        GetPodResourcesResponse.Builder get = GetPodResourcesResponse.newBuilder();
        JsonFormat.parser().merge(value(lines, "Get"), get);
        AllocatableResourcesResponse.Builder alloc = AllocatableResourcesResponse.newBuilder();
        JsonFormat.parser().merge(value(lines, "GetAllocatableResources"), alloc);

        PodAssignment hybrid = snapshot.state().pod("uid-hybrid").orElseThrow();
        PodResources seen = list.getPodResources(0);
        assertThat(seen.getName()).isEqualTo("hybrid");
        assertThat(seen.getCpuIdsList()).isEqualTo(PodResourcesAnswersTest.ids(hybrid.bubble()));
        assertThat(seen.getCpuIdsCount()).isEqualTo(8);
        assertThat(seen.getMemoryList())
                .containsExactly(PodResourcesAnswersTest.memory(
                        "memory",
                        16L << 30,
                        EngineStates.INTEL.numaNodesOf(hybrid.bubble()).first()));
        assertThat(seen.getContainersList().stream().map(ContainerResources::getName))
                .containsExactly("a", "b", "m");
        assertThat(seen.getContainers(1).getCpuIdsList())
                .as("b runs on the pod shared pool")
                .isEmpty();
        CpuSet slices = CpuSet.of(seen.getContainers(0).getCpuIdsList().stream()
                        .map(Long::intValue)
                        .toList())
                .union(CpuSet.of(seen.getContainers(2).getCpuIdsList().stream()
                        .map(Long::intValue)
                        .toList()));
        assertThat(hybrid.bubble().difference(slices)).isEqualTo(hybrid.podSharedPool());
        assertThat(list.getPodResourcesList().stream().map(PodResources::getName))
                .containsExactly("hybrid", "classic", "besteffort");
        assertThat(list.build())
                .as("everything the Go client decoded equals what we meant to send")
                .isEqualTo(PodResourcesAnswers.list(snapshot, DeviceAssignments.NONE));
        assertThat(get.getPodResources()).isEqualTo(seen);
        assertThat(value(lines, "Get-absent.code")).isEqualTo("NotFound");
        assertThat(value(lines, "Get-absent.message")).isEqualTo("pod absent in namespace default not found");
        assertThat(alloc.getCpuIdsList()).isEqualTo(PodResourcesAnswersTest.ids(CpuSet.parse("1-63,65-127")));
        assertThat(alloc.getMemoryCount()).isEqualTo(6);
    }

    @Test
    void upstreamClientSeesTheRateLimit() throws Exception {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.bestEffort());
        Path socket = dir.resolve("limited.sock");
        List<String> calls;
        try (PodResourcesEndpoint ignored = PodResourcesEndpoint.start(
                new PodResourcesEndpoint.Settings(socket, 0600, 0.001, 3),
                new PodResourcesService(new AtomicReference<>(scenario.snapshot())::get, DeviceSource.NONE))) {
            calls = client.burst(socket, 5);
        }
        assertThat(calls)
                .containsExactly(
                        "call OK ",
                        "call OK ",
                        "call OK ",
                        "call ResourceExhausted rejected by rate limit",
                        "call ResourceExhausted rejected by rate limit");
    }

    private static String value(Map<String, String> lines, String key) {
        String v = lines.get(key);
        if (v == null) {
            throw new AssertionError("the Go client printed no '" + key + "' line: " + lines);
        }
        return v;
    }
}
