package io.podnuma.agent.nri;

import static io.podnuma.agent.nri.RecordingHandler.cpuset;
import static io.podnuma.agent.nri.RecordingHandler.next;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.DiscardUnknownFieldsParser;
import com.google.protobuf.InvalidProtocolBufferException;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.CreateContainerResponse;
import io.podnuma.nri.v1alpha1.LinuxCPU;
import io.podnuma.nri.v1alpha1.LinuxMemory;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.OptionalInt64;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.nri.v1alpha1.UpdateContainerResponse;
import io.podnuma.testkit.nri.HarnessOptions;
import io.podnuma.testkit.nri.NriEventResult.Answered;
import io.podnuma.testkit.nri.NriMessages;
import io.podnuma.testkit.nri.NriModule;
import io.podnuma.testkit.nri.NriRawRuntime;
import io.podnuma.testkit.nri.NriRuntimeBinary;
import io.podnuma.testkit.nri.NriRuntimeHarness;
import io.podnuma.testkit.nri.PluginRegistration;
import io.podnuma.ttrpc.Request;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Java {@link NriPlugin} against the upstream NRI adaptation library ({@code github.com/containerd/nri}
 * {@value NriRuntimeBinary#NRI_VERSION} {@code pkg/adaptation}, what containerd 2.2+ and CRI-O embed), run by the
 * test kit's Go harness: registration and Configure, Synchronize (whole and split), every event with the plugin's
 * subscription (0x78C), adjustments and updates as the runtime applies them, unsolicited updates, big messages
 * both ways, a handler slower than the request timeout, a runtime restart, and transport-level garbage from a raw
 * peer. Skips, saying why, without Go.
 */
class NriConformanceIT {

    // node-agent: its ITs run there (module node-agent/it sets that working directory).
    private static final Path BASEDIR = Path.of("").toAbsolutePath();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String NAME = "podnuma";
    private static final String INDEX = "40";
    private static final String PLUGIN = INDEX + "-" + NAME;
    private static final LinuxCPU PIN = cpuset("2-3", "0");

    private static NriRuntimeBinary binary;
    private static final Map<NriModule, NriRuntimeBinary> MATRIX = new EnumMap<>(NriModule.class);

    @TempDir
    Path dir;

    @RegisterExtension
    final PluginUnderTest pluginUnderTest = new PluginUnderTest();

    private final RecordingHandler handler = RecordingHandler.pinning(PIN);
    private final PodSandbox pod = NriMessages.pod("pod-1", "default", "web", "0b6a4c7e-2222-4a2b-9c3d-5e6f7a8b9c0d");
    private final Container app = NriMessages.container("ctr-app", "pod-1", "app");
    private Path socket;
    private NriPlugin plugin;

    @BeforeAll
    static void buildHarness() throws Exception {
        binary = NriRuntimeHarness.buildForTest(BASEDIR.resolve("target/nriruntime"), NriConformanceIT.class);
        MATRIX.put(binary.module(), binary);
    }

    private static synchronized NriRuntimeBinary binary(NriModule module) throws Exception {
        NriRuntimeBinary b = MATRIX.get(module);
        if (b == null) {
            long t0 = System.nanoTime();
            b = NriRuntimeBinary.build(BASEDIR.resolve("target/nriruntime"), module);
            System.out.printf(
                    "NriConformanceIT: go build of the harness on nri %s took %d ms%n",
                    module.version(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
            MATRIX.put(module, b);
        }
        return b;
    }

    @BeforeEach
    void socket() {
        socket = dir.resolve("nri.sock");
    }

    private NriPlugin startPlugin() {
        plugin = pluginUnderTest.start(
                new NriPluginSettings(socket, NAME, INDEX, Duration.ofMillis(20), Duration.ofMillis(500)), handler);
        return plugin;
    }

    private NriRuntimeHarness harness(Duration requestTimeout) throws Exception {
        return NriRuntimeHarness.start(binary, socket, requestTimeout);
    }

    @Test
    void registersAndIsConfiguredWithTheRuntimesNameVersionAndTimeouts() throws Exception {
        HarnessOptions options = new HarnessOptions(Duration.ofMillis(1500), Duration.ofSeconds(4), "cri-o", "1.34.1");
        try (NriRuntimeHarness runtime = NriRuntimeHarness.start(binary, socket, options)) {
            startPlugin();

            assertThat(runtime.awaitPlugins(1, WAIT)).containsExactly(PLUGIN);
            RuntimeInfo info = next(handler.connected, "Configure");
            assertThat(info)
                    .isEqualTo(new RuntimeInfo(
                            "cri-o",
                            "1.34.1",
                            Optional.of(NriRuntimeBinary.NRI_VERSION),
                            Duration.ofSeconds(4),
                            Duration.ofMillis(1500)));
            assertThat(runtime.registrations()).singleElement().satisfies(r -> {
                assertThat(r.plugin()).isEqualTo(PLUGIN);
                assertThat(r.syncMessages()).isEqualTo(1);
                assertThat(r.succeeded()).isTrue();
            });
            assertThat(plugin.connected()).isTrue();
        }
    }

    /**
     * The runtimes in the field embed older adaptations: nri v0.8 (containerd 1.7.26+, 2.0, 2.1) sends no
     * {@code NRI_version}, has no dedicated event RPCs (a removal comes as StateChange) and refuses events 12-14 in a
     * subscription, which 0x78C does not name.
     */
    @ParameterizedTest
    @EnumSource(NriModule.class)
    void registersPinsAndSeesARemovalOnEveryAdaptationVersion(NriModule module) throws Exception {
        try (NriRuntimeHarness runtime = NriRuntimeHarness.start(
                binary(module), socket, HarnessOptions.CONTAINERD_DEFAULTS.withRuntimeVersion("v2.0.5"))) {
            startPlugin();
            assertThat(runtime.awaitPlugins(1, WAIT)).containsExactly(PLUGIN);
            RuntimeInfo info = next(handler.connected, "Configure");
            assertThat(info.version()).isEqualTo("v2.0.5");
            assertThat(info.nriVersion())
                    .isEqualTo(module == NriModule.NRI_0_8_0 ? Optional.empty() : Optional.of(module.version()));

            CreateContainerResponse created =
                    runtime.createContainer(pod, app).answered().response();
            assertThat(adjustedCpu(created)).isEqualTo(PIN);
            assertThat(cpuOf(runtime, "ctr-app")).isEqualTo(PIN);
            runtime.startContainer(pod, app).answered();
            runtime.removeContainer(pod, app).answered();

            assertThat(next(handler.events, "RemoveContainer"))
                    .extracting(
                            RecordingHandler.Event::event,
                            RecordingHandler.Event::podId,
                            RecordingHandler.Event::containerId)
                    .containsExactly(NriEvent.REMOVE_CONTAINER, "pod-1", Optional.of("ctr-app"));
            // The runtime answered each call above only once the plugin had answered every event of it, and the plugin
            // answers an event after its handler has it: whatever was sent is in the queue now.
            assertThat(handler.events).as("START_CONTAINER is not subscribed").isEmpty();
            String carrier = module == NriModule.NRI_0_8_0 ? "StateChange" : "RemoveContainer";
            assertThat(plugin.stats().requests(carrier, NriRequestResult.OK))
                    .as("delivered by " + carrier)
                    .isEqualTo(1);
        }
    }

    @Test
    void whatExistedBeforeThePluginStartedArrivesWholeInSynchronize() throws Exception {
        PodSandbox other = NriMessages.pod("pod-2", "batch", "job", "uid-2");
        List<Container> existing = List.of(
                app,
                NriMessages.container("ctr-side", "pod-1", "sidecar"),
                NriMessages.containerdSized("ctr-job", "pod-2", "job"));
        try (NriRuntimeHarness runtime = harness(Duration.ofSeconds(2))) {
            runtime.addPod(pod);
            runtime.addPod(other);
            for (Container c : existing) {
                runtime.addContainer(c.getPodSandboxId().equals("pod-1") ? pod : other, c);
            }
            startPlugin();

            RecordingHandler.Sync sync = next(handler.syncs, "Synchronize");

            assertThat(sync.pods()).extracting(PodSandbox::getId).containsExactly("pod-1", "pod-2");
            assertThat(sync.pods().get(0).getUid()).isEqualTo(pod.getUid());
            assertThat(sync.pods().get(0).getLinux().getCgroupParent())
                    .isEqualTo(pod.getLinux().getCgroupParent());
            // Field by field as sent: what the subset knows of each container came through, nothing lost.
            assertThat(sync.containers())
                    .extracting(NriConformanceIT::withoutUnknownFields)
                    .containsExactlyInAnyOrderElementsOf(existing);
            assertThat(runtime.awaitRegistrations(1, WAIT).get(0).syncMessages())
                    .isEqualTo(1);
        }
    }

    @Test
    void aSplitSynchronizeIsReassembledIntoOneHandlerCall() throws Exception {
        int pods = 10;
        int perPod = 350;
        try (NriRuntimeHarness runtime = harness(Duration.ofSeconds(2))) {
            for (int i = 0; i < pods; i++) {
                String podId = "pod-%02d".formatted(i);
                runtime.addContainers(
                        NriMessages.pod(podId, "default", "bulk-" + i, "uid-" + i),
                        NriMessages.containerdSized("c%02d".formatted(i), podId, "app"),
                        perPod);
            }
            long t0 = System.nanoTime();
            startPlugin();

            RecordingHandler.Sync sync = next(handler.syncs, "Synchronize");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

            PluginRegistration reg = runtime.awaitRegistrations(1, WAIT).get(0);
            assertThat(reg.syncMessages()).as("the runtime split it").isGreaterThan(1);
            assertThat(sync.pods()).hasSize(pods);
            Set<String> ids = new HashSet<>();
            sync.containers().forEach(c -> ids.add(c.getId()));
            assertThat(ids).hasSize(pods * perPod);
            assertThat(handler.syncs).as("one handler call for all chunks").isEmpty();
            assertThat(plugin.connected()).isTrue();
            System.out.printf(
                    "NriConformanceIT: split sync of %d pods, %d containers: %d messages (%d oversized attempt(s)),"
                            + " one handler call, %d ms from plugin start%n",
                    pods, pods * perPod, reg.syncMessages(), reg.oversizedAttempts(), millis);
        }
    }

    @Test
    void everyEventTheAdaptationRelaysAsThePluginSubscribed() throws Exception {
        Container side = NriMessages.container("ctr-side", "pod-1", "sidecar");
        try (NriRuntimeHarness runtime = harness(Duration.ofSeconds(2))) {
            startPlugin();
            runtime.awaitPlugins(1, WAIT);

            runtime.runPodSandbox(pod).answered();
            runtime.createContainer(pod, side).answered();
            CreateContainerResponse created =
                    runtime.createContainer(pod, app).answered().response();
            // Exactly our cpuset; the adaptation adds an empty memory message of its own, nothing in it.
            assertThat(adjustedCpu(created)).as("exactly our cpuset").isEqualTo(PIN);
            assertThat(created.getAdjust().getLinux().getResources().getMemory())
                    .isEqualTo(LinuxMemory.getDefaultInstance());
            assertThat(created.getAdjust().getAnnotationsMap()).isEmpty();
            assertThat(created.getUpdateList()).isEmpty();
            assertThat(cpuOf(runtime, "ctr-app")).as("the runtime's state").isEqualTo(PIN);
            assertThat(next(handler.created, "CreateContainer").getId()).isEqualTo("ctr-side");
            assertThat(next(handler.created, "CreateContainer").getId()).isEqualTo("ctr-app");

            runtime.startContainer(pod, app).answered();

            // The kubelet widens the cpuset and sets a memory limit: our update keeps the pin, takes the rest.
            LinuxResources kubelet = LinuxResources.newBuilder()
                    .setCpu(LinuxCPU.newBuilder().setCpus("0-7").setMems("0-1"))
                    .setMemory(LinuxMemory.newBuilder()
                            .setLimit(OptionalInt64.newBuilder().setValue(1 << 30)))
                    .build();
            UpdateContainerResponse updated =
                    runtime.updateContainer(pod, app, kubelet).answered().response();
            RecordingHandler.Update seen = next(handler.updated, "UpdateContainer");
            assertThat(seen.container().getId()).isEqualTo("ctr-app");
            assertThat(seen.requested().getCpu().getCpus()).isEqualTo("0-7");
            assertThat(updated.getUpdateList()).singleElement().satisfies(u -> {
                assertThat(u.getContainerId()).isEqualTo("ctr-app");
                assertThat(u.getLinux().getResources().getCpu().getCpus()).isEqualTo("2-3");
                assertThat(u.getLinux().getResources().getCpu().getMems()).isEqualTo("0");
                assertThat(u.getLinux().getResources().getMemory().getLimit().getValue())
                        .isEqualTo(1 << 30);
            });
            assertThat(cpuOf(runtime, "ctr-app")).isEqualTo(PIN);
            // Subscribed: once the runtime applied the update it says so, and the agent reads the cgroup again.
            assertThat(next(handler.events, "PostUpdateContainer").containerId())
                    .hasValue("ctr-app");

            // Stopping the app lets the sidecar grow (a shared pool that gets the CPUs back).
            handler.stopAnswer = List.of(cpusetUpdate("ctr-side", cpuset("1-3", "0")));
            var stopped = runtime.stopContainer(pod, app).answered().response();
            assertThat(next(handler.stopped, "StopContainer").getId()).isEqualTo("ctr-app");
            assertThat(stopped.getUpdateList())
                    .extracting(ContainerUpdate::getContainerId)
                    .containsExactly("ctr-side");
            assertThat(cpuOf(runtime, "ctr-side").getCpus()).isEqualTo("1-3");

            runtime.removeContainer(pod, app).answered();
            runtime.stopPodSandbox(pod).answered();
            runtime.removePodSandbox(pod).answered();

            // Mask 0x78C: of the other events only REMOVE_CONTAINER and REMOVE_POD_SANDBOX are ours; the
            // adaptation filters every event by the mask, so RUN_POD_SANDBOX, START_CONTAINER and STOP_POD_SANDBOX
            // never reach the plugin (v0.12 sends them as dedicated RPCs when subscribed).
            List<RecordingHandler.Event> events =
                    List.of(next(handler.events, "RemoveContainer"), next(handler.events, "RemovePodSandbox"));
            assertThat(events)
                    .extracting(
                            RecordingHandler.Event::event,
                            RecordingHandler.Event::podId,
                            RecordingHandler.Event::containerId)
                    .containsExactly(
                            tuple(NriEvent.REMOVE_CONTAINER, "pod-1", Optional.of("ctr-app")),
                            tuple(NriEvent.REMOVE_POD_SANDBOX, "pod-1", Optional.empty()));
            // Each call above was answered only once the plugin had answered every event of it (after its handler
            // had the event): whatever was sent is in the queue now.
            assertThat(handler.events).as("no unsubscribed event").isEmpty();
            assertThat(handler.created).isEmpty();
            assertThat(plugin.stats().requests("RemoveContainer", NriRequestResult.OK))
                    .as("the v0.12 dedicated RPC, not StateChange")
                    .isEqualTo(1);
            assertThat(plugin.stats().requests("StateChange", NriRequestResult.OK))
                    .isZero();
        }
    }

    @Test
    void unsolicitedUpdatesReachTheRuntimeAndItsState() throws Exception {
        try (NriRuntimeHarness runtime = harness(Duration.ofSeconds(2))) {
            startPlugin();
            runtime.awaitPlugins(1, WAIT);
            runtime.createContainer(pod, app).answered();
            ContainerUpdate update = cpusetUpdate("ctr-app", cpuset("4-5", "1"));

            List<ContainerUpdate> failed =
                    plugin.updateContainers(List.of(update)).get(10, TimeUnit.SECONDS);

            assertThat(failed).isEmpty();
            assertThat(runtime.updates()).containsExactly(update);
            assertThat(cpuOf(runtime, "ctr-app")).isEqualTo(cpuset("4-5", "1"));
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {100 * 1024, 3 * 1024 * 1024})
    void bigRequestsAndAnswersCrossTheGoFramingBothWays(int size) throws Exception {
        String big = "x".repeat(size - 2048);
        Container.Builder fat = app.toBuilder().putAnnotations(RecordingHandler.ECHO, big);
        for (int i = 0; i < 16; i++) {
            fat.addEnv("PADDING_%02d=%s".formatted(i, "y".repeat(100)));
        }
        try (NriRuntimeHarness runtime = harness(Duration.ofSeconds(5))) {
            startPlugin();
            runtime.awaitPlugins(1, WAIT);

            Answered<CreateContainerResponse> created =
                    runtime.createContainer(pod, fat.build()).answered();

            Container received = next(handler.created, "CreateContainer");
            assertThat(received.getAnnotationsOrThrow(RecordingHandler.ECHO)).isEqualTo(big);
            assertThat(received.getEnvList()).isEqualTo(fat.getEnvList());
            assertThat(created.response().getAdjust().getAnnotationsOrThrow(RecordingHandler.ECHO))
                    .isEqualTo(big);
            assertThat(adjustedCpu(created.response())).isEqualTo(PIN);
            assertThat(plugin.connected()).isTrue();
            System.out.printf(
                    "NriConformanceIT: CreateContainer of %d KB there and %d KB back: %.1f ms%n",
                    fat.build().getSerializedSize() / 1024,
                    big.length() / 1024,
                    created.took().toNanos() / 1e6);
        }
    }

    @Test
    void aHandlerSlowerThanTheRequestTimeoutIsDroppedAndComesBackPinning() throws Exception {
        Duration requestTimeout = Duration.ofMillis(500);
        try (NriRuntimeHarness runtime = harness(requestTimeout)) {
            startPlugin();
            runtime.awaitPlugins(1, WAIT);
            handler.slowOnce = Duration.ofSeconds(1);

            Answered<CreateContainerResponse> slow =
                    runtime.createContainer(pod, app).answered();
            long t0 = System.nanoTime();

            assertThat(adjustedCpu(slow.response()).getCpus())
                    .as("fail-open: created unpinned")
                    .isEmpty();
            assertThat(slow.took()).isBetween(requestTimeout.minusMillis(20), requestTimeout.plusMillis(400));
            String reason = next(handler.disconnects, "disconnect");
            List<PluginRegistration> regs = runtime.awaitRegistrations(2, WAIT);
            long back = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(regs).extracting(PluginRegistration::plugin).containsExactly(PLUGIN, PLUGIN);
            assertThat(regs.get(1).containers())
                    .as("resynced with the unpinned container")
                    .isEqualTo(1);
            runtime.awaitPlugins(1, WAIT);

            Container next = NriMessages.container("ctr-next", "pod-1", "next");
            CreateContainerResponse pinned =
                    runtime.createContainer(pod, next).answered().response();
            assertThat(adjustedCpu(pinned)).isEqualTo(PIN);
            System.out.printf(
                    "NriConformanceIT: handler sleeping 1 s against a %d ms request timeout: CreateContainer answered"
                            + " after %d ms unpinned; the plugin saw '%s', was registered and synced again %d ms"
                            + " later, and the next container was pinned%n",
                    requestTimeout.toMillis(), slow.took().toMillis(), reason, back);
        }
    }

    @Test
    void aRestartedRuntimeIsReconnectedAndSynchronized() throws Exception {
        startPlugin();
        try (NriRuntimeHarness first = harness(Duration.ofSeconds(2))) {
            first.awaitPlugins(1, WAIT);
            first.createContainer(pod, app).answered();
            next(handler.syncs, "first Synchronize");
        }
        next(handler.disconnects, "disconnect");
        long t0 = System.nanoTime();
        // The new runtime listens beside the plugin's socket path and is moved there once it holds its containers:
        // containerd recovers them before it serves NRI, and a plugin redialling within the moment between a listen
        // and the recovery would otherwise synchronize with none.
        Path staging = socket.resolveSibling("nri.new");
        try (NriRuntimeHarness second = NriRuntimeHarness.start(binary, staging, Duration.ofSeconds(2))) {
            // containerd restarted: it recovers its pod and the container, pinned as it was.
            second.addContainer(
                    pod,
                    app.toBuilder()
                            .setLinux(app.getLinux().toBuilder()
                                    .setResources(app.getLinux().getResources().toBuilder()
                                            .setCpu(app.getLinux().getResources().getCpu().toBuilder()
                                                    .setCpus("2-3")
                                                    .setMems("0"))))
                            .build());
            Files.move(staging, socket, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

            RecordingHandler.Sync sync = next(handler.syncs, "Synchronize after the restart");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

            assertThat(sync.containers())
                    .singleElement()
                    .satisfies(
                            c -> assertThat(c.getLinux().getResources().getCpu().getCpus())
                                    .isEqualTo("2-3"));
            assertThat(second.awaitPlugins(1, WAIT)).containsExactly(PLUGIN);
            assertThat(plugin.stats().reconnects()).isPositive();
            System.out.printf(
                    "NriConformanceIT: runtime restarted on the same socket: the plugin was back and synchronized %d"
                            + " ms after the new runtime started (backoff 20-500 ms)%n",
                    millis);
        }
    }

    /** Bytes a real runtime never sends, each followed by a close; the plugin must survive all of them. */
    enum Garbage {
        TRUNCATED_MUX_FRAME("inside a frame") {
            @Override
            byte[] bytes() {
                return ByteBuffer.allocate(18)
                        .putInt(1)
                        .putInt(100)
                        .put(new byte[10])
                        .array();
            }
        },
        MUX_FRAME_ON_CONN_7("unknown conn 7") {
            @Override
            byte[] bytes() {
                return mux(7, new byte[] {1, 2, 3});
            }
        },
        TTRPC_LENGTH_OVER_4_MIB("over the") {
            @Override
            byte[] bytes() {
                return mux(1, ttrpc(5 << 20, 1, 1, new byte[0]));
            }
        },
        UNKNOWN_TTRPC_TYPE("unknown type 0x77") {
            @Override
            byte[] bytes() {
                return mux(1, ttrpc(0, 1, 0x77, new byte[0]));
            }
        },
        UNKNOWN_METHOD("the peer closed the connection") {
            @Override
            byte[] bytes() {
                byte[] request = Request.newBuilder()
                        .setService("nri.pkg.api.v1alpha1.Plugin")
                        .setMethod("NoSuchMethod")
                        .setTimeoutNano(1_000_000_000L)
                        .build()
                        .toByteArray();
                return mux(1, ttrpc(request.length, 1, 1, request));
            }
        };

        /** What the plugin's disconnect reason says. */
        final String reason;

        Garbage(String reason) {
            this.reason = reason;
        }

        abstract byte[] bytes();

        static byte[] mux(int conn, byte[] payload) {
            return ByteBuffer.allocate(8 + payload.length)
                    .putInt(conn)
                    .putInt(payload.length)
                    .put(payload)
                    .array();
        }

        /** A ttrpc frame header claiming {@code length} bytes, then {@code data} (which may be shorter). */
        static byte[] ttrpc(int length, int stream, int type, byte[] data) {
            return ByteBuffer.allocate(10 + data.length)
                    .putInt(length)
                    .putInt(stream)
                    .put((byte) type)
                    .put((byte) 0)
                    .put(data)
                    .array();
        }
    }

    @ParameterizedTest
    @EnumSource(Garbage.class)
    void garbageOnTheTransportIsRefusedAndThePluginReconnectsToTheNextRuntime(Garbage garbage) throws Exception {
        startPlugin();
        try (NriRawRuntime raw = NriRawRuntime.start(binary, socket, garbage.bytes(), Duration.ofSeconds(1))) {
            raw.awaitEvent("sent", WAIT);
            if (garbage == Garbage.UNKNOWN_METHOD) {
                JsonNode reply = raw.awaitEvent("ttrpc", WAIT);
                assertThat(reply.path("type").asInt()).as("a response").isEqualTo(2);
                assertThat(reply.path("stream").asInt()).isEqualTo(1);
                assertThat(reply.path("code").asInt()).as("UNIMPLEMENTED").isEqualTo(12);
                System.out.printf(
                        "NriConformanceIT: the Go peer read the plugin's answer to an unknown method: code %d, '%s'%n",
                        reply.path("code").asInt(), reply.path("message").asText());
            }
            String reason = next(handler.disconnects, "disconnect");
            assertThat(reason).contains(garbage.reason);
            assertThat(raw.awaitExit(WAIT)).contains(0);
            System.out.printf("NriConformanceIT: %s: the plugin closed with '%s'%n", garbage, reason);
        }
        try (NriRuntimeHarness runtime = harness(Duration.ofSeconds(2))) {
            assertThat(runtime.awaitPlugins(1, WAIT)).containsExactly(PLUGIN);
            assertThat(adjustedCpu(runtime.createContainer(pod, app).answered().response()))
                    .isEqualTo(PIN);
        }
    }

    private static ContainerUpdate cpusetUpdate(String containerId, LinuxCPU cpu) {
        return RecordingHandler.update(
                containerId, LinuxResources.newBuilder().setCpu(cpu).build());
    }

    /** {@code c} as the subset's types see it: without the fields upstream has and the subset does not. */
    private static Container withoutUnknownFields(Container c) {
        try {
            return DiscardUnknownFieldsParser.wrap(Container.parser()).parseFrom(c.toByteString());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("re-parsing a parsed container", e);
        }
    }

    /** The cpuset the plugins' merged adjustment of a created container sets. */
    private static LinuxCPU adjustedCpu(CreateContainerResponse created) {
        return created.getAdjust().getLinux().getResources().getCpu();
    }

    /** The cpuset (only cpus and mems) the runtime keeps for a container. */
    private static LinuxCPU cpuOf(NriRuntimeHarness runtime, String containerId) throws InterruptedException {
        LinuxCPU cpu = runtime.state()
                .container(containerId)
                .orElseThrow(() -> new AssertionError("no container " + containerId + " in the runtime's state"))
                .getLinux()
                .getResources()
                .getCpu();
        return cpuset(cpu.getCpus(), cpu.getMems());
    }
}
