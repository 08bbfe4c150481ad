package io.podnuma.agent.nri;

import static io.podnuma.agent.nri.RecordingHandler.cpuset;
import static io.podnuma.agent.nri.RecordingHandler.next;
import static io.podnuma.agent.nri.RecordingHandler.pinTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.nri.mux.MuxHeader;
import io.podnuma.agent.nri.ttrpc.StatusCode;
import io.podnuma.agent.nri.ttrpc.TtrpcException;
import io.podnuma.nri.NriVersion;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.CreateContainerRequest;
import io.podnuma.nri.v1alpha1.CreateContainerResponse;
import io.podnuma.nri.v1alpha1.Empty;
import io.podnuma.nri.v1alpha1.Event;
import io.podnuma.nri.v1alpha1.LinuxCPU;
import io.podnuma.nri.v1alpha1.LinuxMemory;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.OptionalInt64;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.nri.v1alpha1.RegisterPluginRequest;
import io.podnuma.nri.v1alpha1.RemovePodSandboxRequest;
import io.podnuma.nri.v1alpha1.StateChangeEvent;
import io.podnuma.nri.v1alpha1.StopContainerRequest;
import io.podnuma.nri.v1alpha1.StopContainerResponse;
import io.podnuma.nri.v1alpha1.SynchronizeRequest;
import io.podnuma.nri.v1alpha1.SynchronizeResponse;
import io.podnuma.nri.v1alpha1.UpdateContainerRequest;
import io.podnuma.nri.v1alpha1.UpdateContainerResponse;
import io.podnuma.nri.v1alpha1.UpdateContainersRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The plugin against {@link FakeRuntime} over a real unix socket. */
class NriPluginTest {

    private static final PodSandbox POD_A = PodSandbox.newBuilder()
            .setId("sandbox-a")
            .setUid("uid-a")
            .setName("a")
            .setNamespace("default")
            .build();
    private static final PodSandbox POD_B =
            PodSandbox.newBuilder().setId("sandbox-b").setUid("uid-b").build();
    private static final Container CTR_A = Container.newBuilder()
            .setId("ctr-a")
            .setPodSandboxId("sandbox-a")
            .setName("app")
            .build();
    private static final Container CTR_B =
            Container.newBuilder().setId("ctr-b").setPodSandboxId("sandbox-b").build();
    private static final CreateContainerRequest CREATE_A = CreateContainerRequest.newBuilder()
            .setPod(POD_A)
            .setContainer(CTR_A)
            .build();

    @TempDir
    Path dir;

    @RegisterExtension
    final PluginUnderTest pluginUnderTest = new PluginUnderTest();

    private final RecordingHandler handler = new RecordingHandler();
    private Path socket;
    private FakeRuntime runtime;
    private NriPlugin plugin;

    @BeforeEach
    void socket() {
        socket = dir.resolve("nri.sock");
    }

    @AfterEach
    void closeRuntime() throws IOException {
        if (runtime != null) {
            runtime.close();
        }
    }

    private NriPlugin startPlugin() {
        plugin = pluginUnderTest.start(
                new NriPluginSettings(socket, "podnuma", "90", Duration.ofMillis(10), Duration.ofMillis(100)), handler);
        return plugin;
    }

    /** The runtime listening on the socket, opened on first use (the plugin may be started before it). */
    private FakeRuntime runtime() throws IOException {
        if (runtime == null) {
            runtime = new FakeRuntime(socket);
        }
        return runtime;
    }

    /** Accepts the plugin's connection, checks its registration and the subscription it answered Configure with. */
    private FakeRuntime.Session registered() throws Exception {
        FakeRuntime.Session session = runtime().accept();
        RegisterPluginRequest registration = next(session.registrations, "RegisterPlugin");
        assertThat(registration.getPluginName()).isEqualTo("podnuma");
        assertThat(registration.getPluginIdx()).isEqualTo("90");
        assertThat(registration.getNRIVersion()).isEqualTo(NriVersion.SPOKEN);
        assertThat(session.configured.get(10, TimeUnit.SECONDS).getEvents()).isEqualTo(0x78C);
        return session;
    }

    /** {@link #registered}, then delivers a one-chunk Synchronize. */
    private FakeRuntime.Session synced() throws Exception {
        FakeRuntime.Session session = registered();
        next(handler.connected, "connected");
        session.call(
                "Synchronize", SynchronizeRequest.newBuilder().addPods(POD_A).build(), SynchronizeResponse.parser());
        next(handler.syncs, "synchronize");
        assertThat(plugin.connected()).isTrue();
        return session;
    }

    @Test
    void theWholeLifeOfAConnectionAndAReconnect() throws Exception {
        startPlugin(); // before the socket exists: the plugin retries
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (plugin.stats().failedConnectAttempts() == 0) {
            assertThat(System.nanoTime())
                    .as("no connection attempt within 10 s")
                    .isLessThan(deadline);
            Thread.sleep(5); // the connector's first try is on its own thread: the socket is opened only after it
        }
        assertThat(plugin.connected()).isFalse();
        assertThatThrownBy(() -> plugin.updateContainers(List.of()).get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not connected");

        // registration, with Configure answered before the RegisterPlugin reply
        FakeRuntime.Session session = registered();
        RuntimeInfo info = next(handler.connected, "connected");
        assertThat(info)
                .isEqualTo(new RuntimeInfo(
                        "fake-runtime", "2.4.2", Optional.of("v0.12.3"), Duration.ofSeconds(5), Duration.ofSeconds(2)));

        // a Synchronize split in three: more=true and no updates until the last; the handler sees it all once
        ContainerUpdate repin = update("ctr-a", "0-1");
        handler.syncAnswer = new SynchronizeResult(List.of(repin));
        SynchronizeResponse first = session.call(
                "Synchronize",
                SynchronizeRequest.newBuilder()
                        .addPods(POD_A)
                        .addContainers(CTR_A)
                        .setMore(true)
                        .build(),
                SynchronizeResponse.parser());
        SynchronizeResponse second = session.call(
                "Synchronize",
                SynchronizeRequest.newBuilder().addPods(POD_B).setMore(true).build(),
                SynchronizeResponse.parser());
        assertThat(handler.syncs).as("no delivery before the last chunk").isEmpty();
        assertThat(plugin.connected()).isFalse();
        SynchronizeResponse last = session.call(
                "Synchronize",
                SynchronizeRequest.newBuilder().addContainers(CTR_B).build(),
                SynchronizeResponse.parser());
        assertThat(List.of(first, second)).allSatisfy(r -> {
            assertThat(r.getMore()).isTrue();
            assertThat(r.getUpdateList()).isEmpty();
        });
        assertThat(last.getMore()).isFalse();
        assertThat(last.getUpdateList()).containsExactly(repin);
        RecordingHandler.Sync sync = next(handler.syncs, "synchronize");
        assertThat(sync.pods()).containsExactly(POD_A, POD_B);
        assertThat(sync.containers()).containsExactly(CTR_A, CTR_B);
        assertThat(plugin.connected()).isTrue();
        assertThat(plugin.state()).isEqualTo(NriConnectionState.SYNCED);

        // CreateContainer: the adjustment carries cpus/mems, other containers get updates
        ContainerUpdate shrink = update("ctr-b", "4-7");
        handler.createAnswer = (pod, ctr) -> new CreateResult(Optional.of(pinTo(cpuset("2-3", "0"))), List.of(shrink));
        CreateContainerResponse created = session.call("CreateContainer", CREATE_A, CreateContainerResponse.parser());
        assertThat(next(handler.created, "createContainer")).isEqualTo(CTR_A);
        LinuxCPU cpu = created.getAdjust().getLinux().getResources().getCpu();
        assertThat(cpu.getCpus()).isEqualTo("2-3");
        assertThat(cpu.getMems()).isEqualTo("0");
        assertThat(created.getUpdateList()).containsExactly(shrink);

        // UpdateContainer and StopContainer
        List<ContainerUpdate> keep = List.of(update("ctr-a", "2-3"));
        handler.updateAnswer = (ctr, requested) -> keep;
        LinuxResources asked = LinuxResources.newBuilder()
                .setCpu(LinuxCPU.newBuilder().setCpus("0-15"))
                .build();
        UpdateContainerResponse updated = session.call(
                "UpdateContainer",
                UpdateContainerRequest.newBuilder()
                        .setPod(POD_A)
                        .setContainer(CTR_A)
                        .setLinuxResources(asked)
                        .build(),
                UpdateContainerResponse.parser());
        assertThat(next(handler.updated, "updateContainer")).isEqualTo(new RecordingHandler.Update(CTR_A, asked));
        assertThat(updated.getUpdateList()).isEqualTo(keep);
        handler.stopAnswer = List.of(update("ctr-b", "2-7"));
        StopContainerResponse stopped = session.call(
                "StopContainer",
                StopContainerRequest.newBuilder()
                        .setPod(POD_A)
                        .setContainer(CTR_A)
                        .build(),
                StopContainerResponse.parser());
        assertThat(next(handler.stopped, "stopContainer")).isEqualTo(CTR_A);
        assertThat(stopped.getUpdateList()).isEqualTo(handler.stopAnswer);

        // events: StateChange (pre-v0.12) and the dedicated method (v0.12)
        session.call(
                "StateChange",
                StateChangeEvent.newBuilder()
                        .setEvent(Event.REMOVE_CONTAINER)
                        .setPod(POD_A)
                        .setContainer(CTR_A)
                        .build(),
                Empty.parser());
        assertThat(next(handler.events, "event"))
                .isEqualTo(new RecordingHandler.Event(NriEvent.REMOVE_CONTAINER, POD_A, Optional.of(CTR_A)));
        session.call(
                "RemovePodSandbox",
                RemovePodSandboxRequest.newBuilder().setPod(POD_A).build(),
                Empty.parser());
        assertThat(next(handler.events, "event"))
                .isEqualTo(new RecordingHandler.Event(NriEvent.REMOVE_POD_SANDBOX, POD_A, Optional.empty()));

        // methods we do not serve
        assertThatThrownBy(() -> session.call("UpdatePodSandbox", Empty.getDefaultInstance(), Empty.parser()))
                .isInstanceOfSatisfying(
                        TtrpcException.class, e -> assertThat(e.code()).isEqualTo(StatusCode.UNIMPLEMENTED));
        assertThatThrownBy(() -> session.call("NoSuchMethod", Empty.getDefaultInstance(), Empty.parser()))
                .isInstanceOfSatisfying(
                        TtrpcException.class, e -> assertThat(e.code()).isEqualTo(StatusCode.UNIMPLEMENTED));

        // unsolicited UpdateContainers: the runtime's failed ones come back
        ContainerUpdate u1 = update("ctr-a", "5");
        ContainerUpdate u2 = update("ctr-b", "6");
        assertThat(plugin.updateContainers(List.of(u1, u2)).get(10, TimeUnit.SECONDS))
                .containsExactly(u1);
        UpdateContainersRequest sent = next(session.updateRequests, "UpdateContainers");
        assertThat(sent.getUpdateList()).containsExactly(u1, u2);

        NriStats stats = plugin.stats();
        assertThat(stats.requests("CreateContainer", NriRequestResult.OK)).isEqualTo(1);
        assertThat(stats.requests("Synchronize", NriRequestResult.OK)).isEqualTo(3);
        assertThat(stats.requests("UpdatePodSandbox", NriRequestResult.UNIMPLEMENTED))
                .isEqualTo(1);
        assertThat(stats.lastRequestNanos()).isPositive();
        assertThat(stats.connects()).isEqualTo(1);
        assertThat(stats.reconnects()).isZero();
        assertThat(stats.failedConnectAttempts()).isPositive();

        // the runtime goes away: the plugin notices, reconnects, registers and is configured again
        session.close();
        assertThat(next(handler.disconnects, "disconnected")).isEqualTo("the peer closed the connection");
        FakeRuntime.Session again = synced();
        assertThat(plugin.stats().reconnects()).isEqualTo(1);
        again.close();
    }

    @Test
    void threeMegabytesGoBothWays() throws Exception {
        startPlugin();
        FakeRuntime.Session session = synced();
        String big = "x".repeat(3 * 1024 * 1024);
        handler.createAnswer = (pod, ctr) -> new CreateResult(
                Optional.of(pinTo(cpuset("1", "0")).toBuilder()
                        .putAnnotations("echo", pod.getAnnotationsOrThrow("big"))
                        .build()),
                List.of());

        CreateContainerResponse response = session.call(
                "CreateContainer",
                CREATE_A.toBuilder()
                        .setPod(POD_A.toBuilder().putAnnotations("big", big))
                        .build(),
                CreateContainerResponse.parser(),
                Duration.ofSeconds(10));

        assertThat(response.getAdjust().getAnnotationsOrThrow("echo")).isEqualTo(big);
        assertThat(response.getAdjust().getLinux().getResources().getCpu().getCpus())
                .isEqualTo("1");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            value = {
                "garbage header; 474152424147452121212121",
                "mux length over the limit; 00000001ffffffff",
                "unknown conn id; 0000000300000001ff",
                "reserved conn id; 0000000000000001ff",
                "ttrpc length over the limit; 0000000100000010" + "00500000000000010100" + "000000000000",
                "unknown ttrpc type; 000000010000000a" + "00000000000000017700",
                "response sent to the plugin service; 000000010000000a" + "00000000000000010200",
            })
    void malformedInputClosesTheConnectionAndThePluginReconnects(String what, String bytes) throws Exception {
        startPlugin();
        SocketChannel raw = runtime().acceptRaw();
        raw.write(ByteBuffer.wrap(HexFormat.of().parseHex(bytes)));

        assertThat(drainUntilClosed(raw)).as("the plugin closed the socket").isTrue();
        String reason = next(handler.disconnects, "disconnected");
        assertThat(reason).containsAnyOf("protocol error", "bad data");
        synced().close();
    }

    @Test
    void shutdownIsAnsweredAndTreatedAsAClose() throws Exception {
        startPlugin();
        FakeRuntime.Session session = synced();

        session.call("Shutdown", Empty.getDefaultInstance(), Empty.parser());

        assertThat(next(handler.disconnects, "disconnected")).isEqualTo("the runtime sent Shutdown");
        synced().close();
        session.close();
    }

    @Test
    void aHandlerOverrunningTheRequestTimeoutIsAnsweredDeadlineExceeded() throws Exception {
        startPlugin();
        CountDownLatch interrupted = new CountDownLatch(1);
        FakeRuntime.Session session = synced();
        handler.createAnswer = (pod, ctr) -> {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return CreateResult.none();
        };

        assertThatThrownBy(() -> session.call(
                        "CreateContainer", CREATE_A, CreateContainerResponse.parser(), Duration.ofMillis(100)))
                .isInstanceOfSatisfying(
                        TtrpcException.class, e -> assertThat(e.code()).isEqualTo(StatusCode.DEADLINE_EXCEEDED));
        assertThat(interrupted.await(10, TimeUnit.SECONDS))
                .as("the handler was interrupted")
                .isTrue();
        session.close();
    }

    @Test
    void updateContainersFromInsideAHandlerIsRefused() throws Exception {
        startPlugin();
        CompletableFuture<Throwable> refusal = new CompletableFuture<>();
        FakeRuntime.Session session = synced();
        handler.createAnswer = (pod, ctr) -> {
            try {
                plugin.updateContainers(List.of(update("ctr-b", "1"))).get(10, TimeUnit.SECONDS);
                refusal.complete(null);
            } catch (ExecutionException e) {
                refusal.complete(e.getCause());
            } catch (Exception e) {
                refusal.complete(e);
            }
            return CreateResult.none();
        };

        session.call("CreateContainer", CREATE_A, CreateContainerResponse.parser());

        assertThat(refusal.get(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("would deadlock");
        assertThat(session.updateRequests).isEmpty();
        session.close();
    }

    @Test
    void aPluginClosedWhileTheSocketIsAbsentStopsRetrying() {
        startPlugin();
        plugin.close();
        assertThat(plugin.state()).isEqualTo(NriConnectionState.CLOSED);
        assertThat(plugin.connected()).isFalse();
    }

    /** Reads (and drops) what the plugin sends until it closes the socket; false if it stays open. */
    private static boolean drainUntilClosed(SocketChannel raw) throws Exception {
        CompletableFuture<Boolean> closed = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(MuxHeader.BYTES * 1024);
            try {
                while (raw.read(buffer.clear()) >= 0) {
                    // the plugin's RegisterPlugin, ignored
                }
                closed.complete(true);
            } catch (IOException e) {
                closed.complete(true); // reset by the peer is a close too
            }
        });
        try {
            return closed.get(10, TimeUnit.SECONDS);
        } finally {
            raw.close();
        }
    }

    /** An update of {@code id} to {@code cpus}, with a memory limit so it is more than a cpuset. */
    private static ContainerUpdate update(String id, String cpus) {
        return RecordingHandler.update(
                id,
                LinuxResources.newBuilder()
                        .setCpu(LinuxCPU.newBuilder().setCpus(cpus))
                        .setMemory(LinuxMemory.newBuilder()
                                .setLimit(OptionalInt64.newBuilder().setValue(1L << 30)))
                        .build());
    }
}
