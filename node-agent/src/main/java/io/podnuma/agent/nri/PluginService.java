package io.podnuma.agent.nri;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import io.podnuma.agent.nri.ttrpc.ServiceMethod;
import io.podnuma.agent.nri.ttrpc.StatusCode;
import io.podnuma.agent.nri.ttrpc.TtrpcException;
import io.podnuma.agent.nri.ttrpc.UnaryHandler;
import io.podnuma.nri.v1alpha1.ConfigureRequest;
import io.podnuma.nri.v1alpha1.ConfigureResponse;
import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.CreateContainerRequest;
import io.podnuma.nri.v1alpha1.CreateContainerResponse;
import io.podnuma.nri.v1alpha1.PodSandbox;
import io.podnuma.nri.v1alpha1.PostCreateContainerRequest;
import io.podnuma.nri.v1alpha1.PostStartContainerRequest;
import io.podnuma.nri.v1alpha1.PostUpdateContainerRequest;
import io.podnuma.nri.v1alpha1.PostUpdatePodSandboxRequest;
import io.podnuma.nri.v1alpha1.RemoveContainerRequest;
import io.podnuma.nri.v1alpha1.RemovePodSandboxRequest;
import io.podnuma.nri.v1alpha1.RunPodSandboxRequest;
import io.podnuma.nri.v1alpha1.StartContainerRequest;
import io.podnuma.nri.v1alpha1.StateChangeEvent;
import io.podnuma.nri.v1alpha1.StopContainerRequest;
import io.podnuma.nri.v1alpha1.StopContainerResponse;
import io.podnuma.nri.v1alpha1.StopPodSandboxRequest;
import io.podnuma.nri.v1alpha1.SynchronizeRequest;
import io.podnuma.nri.v1alpha1.SynchronizeResponse;
import io.podnuma.nri.v1alpha1.UpdateContainerRequest;
import io.podnuma.nri.v1alpha1.UpdateContainerResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The NRI Plugin service of one connection: decodes each request, calls the {@link NriHandler}, encodes its answer.
 * Served: the v0.2 set (Configure, Synchronize, Shutdown, Create/Update/StopContainer, StateChange) and the v0.12
 * dedicated event methods, which all land in {@link NriHandler#event}. Anything else (UpdatePodSandbox,
 * ValidateContainerAdjustment, later additions) is left to the server's UNIMPLEMENTED; we do not subscribe to it.
 */
final class PluginService {

    /** A Configure without a request timeout (never seen) is treated as the runtimes' default. */
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(2);

    private static final ThreadLocal<Boolean> IN_HANDLER = ThreadLocal.withInitial(() -> false);

    /** What the session learns from the requests. */
    interface Progress {
        void configured(RuntimeInfo runtime, EventMask events);

        void synced();
    }

    private final NriHandler handler;
    private final Progress progress;
    private final AtomicReference<SyncChunks> sync = new AtomicReference<>(SyncChunks.NONE);

    PluginService(NriHandler handler, Progress progress) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** Whether the current thread is inside a handler call (where calling the runtime back would deadlock it). */
    static boolean insideHandler() {
        return IN_HANDLER.get();
    }

    Map<ServiceMethod, UnaryHandler> handlers() {
        Map<ServiceMethod, UnaryHandler> h = new HashMap<>();
        h.put(NriMethods.plugin("Configure"), this::configure);
        h.put(NriMethods.plugin("Synchronize"), this::synchronize);
        h.put(NriMethods.plugin("Shutdown"), request -> new byte[0]); // the session closes once it is answered
        h.put(NriMethods.plugin("CreateContainer"), this::createContainer);
        h.put(NriMethods.plugin("UpdateContainer"), this::updateContainer);
        h.put(NriMethods.plugin("StopContainer"), this::stopContainer);
        h.put(NriMethods.plugin("StateChange"), this::stateChange);
        event(
                h,
                "RunPodSandbox",
                NriEvent.RUN_POD_SANDBOX,
                RunPodSandboxRequest.parser(),
                RunPodSandboxRequest::getPod,
                r -> null);
        event(
                h,
                "StopPodSandbox",
                NriEvent.STOP_POD_SANDBOX,
                StopPodSandboxRequest.parser(),
                StopPodSandboxRequest::getPod,
                r -> null);
        event(
                h,
                "RemovePodSandbox",
                NriEvent.REMOVE_POD_SANDBOX,
                RemovePodSandboxRequest.parser(),
                RemovePodSandboxRequest::getPod,
                r -> null);
        event(
                h,
                "PostUpdatePodSandbox",
                NriEvent.POST_UPDATE_POD_SANDBOX,
                PostUpdatePodSandboxRequest.parser(),
                PostUpdatePodSandboxRequest::getPod,
                r -> null);
        event(
                h,
                "PostCreateContainer",
                NriEvent.POST_CREATE_CONTAINER,
                PostCreateContainerRequest.parser(),
                PostCreateContainerRequest::getPod,
                PostCreateContainerRequest::getContainer);
        event(
                h,
                "StartContainer",
                NriEvent.START_CONTAINER,
                StartContainerRequest.parser(),
                StartContainerRequest::getPod,
                StartContainerRequest::getContainer);
        event(
                h,
                "PostStartContainer",
                NriEvent.POST_START_CONTAINER,
                PostStartContainerRequest.parser(),
                PostStartContainerRequest::getPod,
                PostStartContainerRequest::getContainer);
        event(
                h,
                "PostUpdateContainer",
                NriEvent.POST_UPDATE_CONTAINER,
                PostUpdateContainerRequest.parser(),
                PostUpdateContainerRequest::getPod,
                PostUpdateContainerRequest::getContainer);
        event(
                h,
                "RemoveContainer",
                NriEvent.REMOVE_CONTAINER,
                RemoveContainerRequest.parser(),
                RemoveContainerRequest::getPod,
                RemoveContainerRequest::getContainer);
        return h;
    }

    private byte[] configure(byte[] bytes) throws Exception {
        ConfigureRequest request = parse(ConfigureRequest.parser(), bytes, "Configure");
        RuntimeInfo runtime = new RuntimeInfo(
                request.getRuntimeName(),
                request.getRuntimeVersion(),
                request.getNRIVersion().isEmpty() ? Optional.empty() : Optional.of(request.getNRIVersion()),
                Duration.ofMillis(request.getRegistrationTimeout()),
                request.getRequestTimeout() > 0
                        ? Duration.ofMillis(request.getRequestTimeout())
                        : DEFAULT_REQUEST_TIMEOUT);
        EventMask events = EventMask.PINNING.forRuntime(runtime.nriVersion());
        inHandler(() -> {
            handler.connected(runtime);
            return null;
        });
        progress.configured(runtime, events);
        return ConfigureResponse.newBuilder().setEvents(events.bits()).build().toByteArray();
    }

    private byte[] synchronize(byte[] bytes) throws Exception {
        SynchronizeRequest request = parse(SynchronizeRequest.parser(), bytes, "Synchronize");
        if (request.getMore()) {
            sync.updateAndGet(s -> s.plus(request));
            return SynchronizeResponse.newBuilder().setMore(true).build().toByteArray();
        }
        SyncChunks all = sync.getAndSet(SyncChunks.NONE).plus(request);
        SynchronizeResult result = inHandler(() -> handler.synchronize(all.pods(), all.containers()));
        progress.synced();
        return SynchronizeResponse.newBuilder()
                .addAllUpdate(result.updates())
                .build()
                .toByteArray();
    }

    private byte[] createContainer(byte[] bytes) throws Exception {
        CreateContainerRequest request = parse(CreateContainerRequest.parser(), bytes, "CreateContainer");
        requireIds("CreateContainer", request.getPod(), request.getContainer());
        CreateResult result = inHandler(() -> handler.createContainer(request.getPod(), request.getContainer()));
        CreateContainerResponse.Builder response =
                CreateContainerResponse.newBuilder().addAllUpdate(result.updates());
        result.adjust().ifPresent(response::setAdjust);
        return response.build().toByteArray();
    }

    private byte[] updateContainer(byte[] bytes) throws Exception {
        UpdateContainerRequest request = parse(UpdateContainerRequest.parser(), bytes, "UpdateContainer");
        requireIds("UpdateContainer", request.getPod(), request.getContainer());
        var updates = inHandler(
                () -> handler.updateContainer(request.getPod(), request.getContainer(), request.getLinuxResources()));
        return UpdateContainerResponse.newBuilder()
                .addAllUpdate(updates)
                .build()
                .toByteArray();
    }

    private byte[] stopContainer(byte[] bytes) throws Exception {
        StopContainerRequest request = parse(StopContainerRequest.parser(), bytes, "StopContainer");
        requireIds("StopContainer", request.getPod(), request.getContainer());
        var updates = inHandler(() -> handler.stopContainer(request.getPod(), request.getContainer()));
        return StopContainerResponse.newBuilder().addAllUpdate(updates).build().toByteArray();
    }

    private byte[] stateChange(byte[] bytes) throws Exception {
        StateChangeEvent request = parse(StateChangeEvent.parser(), bytes, "StateChange");
        NriEvent event = NriEvent.of(request.getEvent())
                .orElseThrow(() -> new TtrpcException(
                        StatusCode.INVALID_ARGUMENT, "StateChange with unknown event " + request.getEventValue()));
        Optional<Container> container = request.hasContainer() ? Optional.of(request.getContainer()) : Optional.empty();
        inHandler(() -> {
            handler.event(event, request.getPod(), container);
            return null;
        });
        return new byte[0];
    }

    private <M> void event(
            Map<ServiceMethod, UnaryHandler> h,
            String method,
            NriEvent event,
            Parser<M> parser,
            Function<M, PodSandbox> pod,
            Function<M, Container> container) {
        h.put(NriMethods.plugin(method), bytes -> {
            M request = parse(parser, bytes, method);
            Optional<Container> c = Optional.ofNullable(container.apply(request));
            inHandler(() -> {
                handler.event(event, pod.apply(request), c);
                return null;
            });
            return new byte[0]; // every event response is an empty message
        });
    }

    /**
     * A container request without the pod's and container's ids cannot be matched to any pod of the node: refused
     * before the handler sees it (a runtime always sets both).
     */
    private static void requireIds(String method, PodSandbox pod, Container container) throws TtrpcException {
        List<String> missing = new ArrayList<>();
        if (pod.getId().isEmpty()) {
            missing.add("pod.id");
        }
        if (container.getId().isEmpty()) {
            missing.add("container.id");
        }
        if (!missing.isEmpty()) {
            throw new TtrpcException(
                    StatusCode.INVALID_ARGUMENT,
                    method + " request has no " + String.join(" and no ", missing)
                            + ": allowed a request naming the pod sandbox and the container by id");
        }
    }

    private static <M> M parse(Parser<M> parser, byte[] bytes, String method) throws TtrpcException {
        try {
            return parser.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new TtrpcException(
                    StatusCode.INVALID_ARGUMENT, "undecodable " + method + " request: " + e.getMessage());
        }
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private static <T> T inHandler(Call<T> call) throws Exception {
        IN_HANDLER.set(true);
        try {
            return call.run();
        } finally {
            IN_HANDLER.set(false);
        }
    }
}
