package io.podnuma.agent.podresources;

import static java.nio.charset.StandardCharsets.UTF_8;
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
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upstream Go client ({@code k8s.io/kubelet} v0.37.2 PodResources types and stubs, built from
 * {@code src/test/go/podresclient}) calls our real socket; the JSON it prints is what a kubelet consumer sees.
 */
class PodResourcesGoClientIT {

    private static final Path BASEDIR =
            Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    private static final Path MODULE = BASEDIR.resolve("src/test/go/podresclient");

    private static Path binary;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildGoClient() throws Exception {
        Optional<Path> go = findGo();
        if (go.isEmpty()) {
            String reason = "skipped: no executable 'go' (-Dpodresclient.go, PATH, /usr/local/go/bin); the upstream"
                    + " client check needs Go 1.26+. PodResourcesAnswersTest and PodResourcesEndpointTest still cover"
                    + " the answers over a real socket with the Java client.";
            System.out.println("PodResourcesGoClientIT " + reason);
            Assumptions.abort(reason);
        }
        Path out = BASEDIR.resolve("target/podresclient");
        Files.createDirectories(out);
        binary = out.resolve("podresclient");
        Result r = exec(
                List.of(go.get().toString(), "build", "-mod=readonly", "-buildvcs=false", "-o", binary.toString(), "."),
                900);
        assertThat(r.exit()).as("go build in %s:%n%s", MODULE, r.stderr()).isZero();
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
        Result r;
        try (PodResourcesEndpoint ignored = PodResourcesEndpoint.start(
                PodResourcesEndpoint.Settings.defaults(socket),
                new PodResourcesService(new AtomicReference<>(snapshot)::get, DeviceSource.NONE))) {
            r = exec(List.of(binary.toString(), "query", socket.toString(), "default", "hybrid"), 120);
        }
        assertThat(r.exit()).as("podresclient:%n%s", r.stderr()).isZero();
        List<String> lines = r.stdout().lines().toList();
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
        Result r;
        try (PodResourcesEndpoint ignored = PodResourcesEndpoint.start(
                new PodResourcesEndpoint.Settings(socket, 0600, 0.001, 3),
                new PodResourcesService(new AtomicReference<>(scenario.snapshot())::get, DeviceSource.NONE))) {
            r = exec(List.of(binary.toString(), "burst", socket.toString(), "5"), 120);
        }
        assertThat(r.exit()).as("podresclient:%n%s", r.stderr()).isZero();
        assertThat(r.stdout().lines().toList())
                .containsExactly(
                        "call OK ",
                        "call OK ",
                        "call OK ",
                        "call ResourceExhausted rejected by rate limit",
                        "call ResourceExhausted rejected by rate limit");
    }

    private static String value(List<String> lines, String key) {
        return lines.stream()
                .filter(l -> l.startsWith(key + " "))
                .map(l -> l.substring(key.length() + 1))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the Go client printed no '" + key + "' line: " + lines));
    }

    private static Optional<Path> findGo() {
        String explicit = System.getProperty("podresclient.go");
        if (explicit != null) {
            return Optional.of(Path.of(explicit)).filter(Files::isExecutable);
        }
        Stream<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isBlank())
                .map(d -> Path.of(d, "go"));
        return Stream.concat(onPath, Stream.of(Path.of("/usr/local/go/bin/go")))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private record Result(int exit, String stdout, String stderr) {}

    private static Result exec(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("podresclient", ".out");
        Path err = Files.createTempFile("podresclient", ".err");
        try {
            Process p = new ProcessBuilder(new ArrayList<>(command))
                    .directory(MODULE.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in " + timeoutSeconds
                        + " s; stderr:\n" + Files.readString(err, UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
