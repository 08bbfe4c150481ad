package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.podresources.DomainSocketChannels;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.podresources.v1.PodResourcesListerGrpc.PodResourcesListerBlockingStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service on a real unix socket: permissions, directory, rate limit, NotFound, clean close. */
class PodResourcesEndpointTest {

    @TempDir
    Path dir;

    private ManagedChannel channel;

    @AfterEach
    void closeChannel() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static PodResourcesService service() {
        var scenario = EngineStates.admit(
                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.perContainer());
        return new PodResourcesService(new AtomicReference<>(scenario.snapshot())::get, DeviceSource.NONE);
    }

    /** The user this test runs as, the agent's user in the tests. */
    private static int uid() throws java.io.IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    private PodResourcesListerBlockingStub client(Path socket) {
        channel = DomainSocketChannels.open(socket);
        return PodResourcesListerGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    @Test
    void socketIsCreatedInANewDirectoryWithMode0600AndRemovedOnClose() throws Exception {
        Path socket = dir.resolve("new/pod-resources/podnuma.sock");
        try (PodResourcesEndpoint endpoint =
                PodResourcesEndpoint.start(PodResourcesEndpoint.Settings.defaults(socket), service())) {
            assertThat(endpoint.socket()).isEqualTo(socket);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())))
                    .as("a directory it makes is root-only, so the socket is never reachable before its chmod")
                    .isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(
                            Files.getPosixFilePermissions(socket.getParent().getParent())))
                    .isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
                    .isEqualTo("rw-------");
            assertThat(endpoint.directory().note())
                    .isEqualTo("PodResources socket directory " + socket.getParent() + " made rwx------");
            assertThat(client(socket)
                            .list(ListPodResourcesRequest.getDefaultInstance())
                            .getPodResources(0)
                            .getName())
                    .isEqualTo("classic");
        }
        assertThat(socket).doesNotExist();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"0600, 0700", "0660, 0750", "0640, 0750", "0664, 0755", "0000, 0000"})
    void aDirectoryMadeForTheSocketLetsInWhomTheSocketDoesAndOnlyTheOwnerWrite(String socket, String directory) {
        assertThat(PodResourcesEndpoint.directoryMode(Integer.parseInt(socket, 8)))
                .isEqualTo(Integer.parseInt(directory, 8));
    }

    @Test
    void theAgentsOwnDirectoryMade0755BeforeIsSetTo0700AndTheSocketStillServes() throws Exception {
        // As the kubelet makes the hostPath the operator mounts for the socket alone (DirectoryOrCreate: 0755).
        Path own = Files.createDirectory(dir.resolve("pod-resources"));
        Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path socket = own.resolve("podnuma.sock");
        try (PodResourcesEndpoint endpoint =
                PodResourcesEndpoint.start(PodResourcesEndpoint.Settings.defaults(socket), service())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(own)))
                    .isEqualTo("rwx------");
            assertThat(endpoint.directory().action()).isEqualTo(SocketDirectory.Action.TIGHTEN);
            assertThat(endpoint.directory().note())
                    .isEqualTo("PodResources socket directory " + own + " was rwxr-xr-x, now rwx------: the agent's"
                            + " own (uid " + uid() + ", nothing in it but podnuma.sock)");
            assertThat(client(socket)
                            .list(ListPodResourcesRequest.getDefaultInstance())
                            .getPodResources(0)
                            .getName())
                    .isEqualTo("classic");
        }
        try (PodResourcesEndpoint again =
                PodResourcesEndpoint.start(PodResourcesEndpoint.Settings.defaults(socket), service())) {
            assertThat(again.directory().action())
                    .as("the next start finds it right")
                    .isEqualTo(SocketDirectory.Action.KEEP);
            assertThat(again.directory().note()).isEqualTo("PodResources socket directory " + own + " is rwx------");
        }
    }

    @Test
    void aDirectoryThatHoldsOtherFilesIsLeftAsItIs() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(shared.resolve("kubelet.sock"), "");
        try (PodResourcesEndpoint endpoint = PodResourcesEndpoint.start(
                PodResourcesEndpoint.Settings.defaults(shared.resolve("s.sock")), service())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(shared)))
                    .isEqualTo("rwxr-xr-x");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(shared.resolve("s.sock"))))
                    .isEqualTo("rw-------");
            assertThat(endpoint.directory())
                    .isEqualTo(new SocketDirectory.Decision(
                            SocketDirectory.Action.LEAVE,
                            "PodResources socket directory " + shared + " left rwxr-xr-x: it holds other files than"
                                    + " s.sock (kubelet.sock), so it is not the agent's own to change; give the"
                                    + " socket a directory of its own to have it made rwx------",
                            org.slf4j.event.Level.INFO));
        }
    }

    @Test
    void aDirectoryOfAnotherUserIsLeftAsItIsAndAWritableOneIsAWarning() throws Exception {
        Path theirs = Files.createDirectory(dir.resolve("theirs"));
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwxrwxr-x"));
        try {
            Files.setAttribute(theirs, "unix:uid", 65534);
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.abort("cannot give a directory to another user here: " + e);
        }
        try (PodResourcesEndpoint endpoint = PodResourcesEndpoint.start(
                PodResourcesEndpoint.Settings.defaults(theirs.resolve("s.sock")), service())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(theirs)))
                    .isEqualTo("rwxrwxr-x");
            assertThat(endpoint.directory())
                    .isEqualTo(new SocketDirectory.Decision(
                            SocketDirectory.Action.LEAVE,
                            "PodResources socket directory " + theirs + " left rwxrwxr-x: it belongs to uid 65534,"
                                    + " not to uid " + uid()
                                    + " the agent runs as, so it is not the agent's own to change; give"
                                    + " the socket a directory of its own to have it made rwx------",
                            org.slf4j.event.Level.WARN));
        }
    }

    @Test
    void configuredModeIsApplied() throws Exception {
        Path socket = dir.resolve("group.sock");
        try (PodResourcesEndpoint ignored =
                PodResourcesEndpoint.start(new PodResourcesEndpoint.Settings(socket, 0660, 100, 10), service())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
                    .isEqualTo("rw-rw----");
        }
    }

    @Test
    void aSecondStartOnTheSamePathAfterCloseWorks() throws Exception {
        Path socket = dir.resolve("again.sock");
        PodResourcesEndpoint.start(PodResourcesEndpoint.Settings.defaults(socket), service())
                .close();
        try (PodResourcesEndpoint ignored =
                PodResourcesEndpoint.start(PodResourcesEndpoint.Settings.defaults(socket), service())) {
            assertThat(client(socket)
                            .getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance())
                            .getCpuIdsCount())
                    .isEqualTo(126);
        }
    }

    @Test
    void callsOverTheBurstAreRefusedWithTheKubeletsStatus() throws Exception {
        Path socket = dir.resolve("limited.sock");
        // 0.001 QPS: no token comes back during the test, so exactly the burst passes.
        try (PodResourcesEndpoint ignored =
                PodResourcesEndpoint.start(new PodResourcesEndpoint.Settings(socket, 0600, 0.001, 3), service())) {
            PodResourcesListerBlockingStub stub = client(socket);
            for (int i = 0; i < 3; i++) {
                stub.list(ListPodResourcesRequest.getDefaultInstance());
            }
            assertThatThrownBy(() -> stub.list(ListPodResourcesRequest.getDefaultInstance()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                        assertThat(e.getStatus().getDescription()).isEqualTo("rejected by rate limit");
                    });
            assertThatThrownBy(() -> stub.getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance()))
                    .as("one bucket for every RPC, like the kubelet")
                    .isInstanceOf(StatusRuntimeException.class)
                    .hasMessageContaining("RESOURCE_EXHAUSTED");
        }
    }

    @Test
    void getOfAnAbsentPodIsNotFoundAndNamesThePod() throws Exception {
        Path socket = dir.resolve("get.sock");
        try (PodResourcesEndpoint ignored =
                PodResourcesEndpoint.start(PodResourcesEndpoint.Settings.defaults(socket), service())) {
            PodResourcesListerBlockingStub stub = client(socket);
            assertThat(stub.get(GetPodResourcesRequest.newBuilder()
                                    .setPodNamespace("default")
                                    .setPodName("classic")
                                    .build())
                            .getPodResources()
                            .getContainersCount())
                    .isEqualTo(2);
            assertThatThrownBy(() -> stub.get(GetPodResourcesRequest.newBuilder()
                            .setPodNamespace("prod")
                            .setPodName("classic")
                            .build()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                        assertThat(e.getStatus().getDescription()).isEqualTo("pod classic in namespace prod not found");
                    });
        }
    }

    @Test
    void beforeTheFirstSnapshotEveryCallIsUnavailable() throws Exception {
        Path socket = dir.resolve("early.sock");
        AtomicReference<PodResourcesSnapshot> published = new AtomicReference<>();
        try (PodResourcesEndpoint ignored = PodResourcesEndpoint.start(
                PodResourcesEndpoint.Settings.defaults(socket),
                new PodResourcesService(published::get, DeviceSource.NONE))) {
            PodResourcesListerBlockingStub stub = client(socket);
            assertThatThrownBy(() -> stub.list(ListPodResourcesRequest.getDefaultInstance()))
                    .isInstanceOfSatisfying(
                            StatusRuntimeException.class,
                            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
            assertThatThrownBy(() -> stub.getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance()))
                    .hasMessageContaining("UNAVAILABLE: the podnuma node agent has not finished its first pod sync");
            assertThatThrownBy(() -> stub.get(GetPodResourcesRequest.newBuilder()
                            .setPodNamespace("default")
                            .setPodName("classic")
                            .build()))
                    .hasMessageContaining("UNAVAILABLE");

            published.set(EngineStates.admit(
                            EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false), EngineStates.bestEffort())
                    .snapshot());
            assertThat(stub.list(ListPodResourcesRequest.getDefaultInstance())
                            .getPodResources(0)
                            .getName())
                    .as("the next call reads the newly published snapshot")
                    .isEqualTo("besteffort");
        }
    }

    @Test
    void badModeNamesTheSetting() {
        assertThatThrownBy(() -> new PodResourcesEndpoint.Settings(dir.resolve("x.sock"), 01777, 100, 10))
                .hasMessage("PodResources socket mode 1777 is out of range: use permission bits between 0 and 0777,"
                        + " e.g. 0600");
    }
}
