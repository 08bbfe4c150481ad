package io.podnuma.agent.nri;

import com.google.protobuf.InvalidProtocolBufferException;
import io.podnuma.agent.nri.mux.Mux;
import io.podnuma.agent.nri.mux.MuxChannel;
import io.podnuma.agent.nri.ttrpc.StatusCode;
import io.podnuma.agent.nri.ttrpc.TtrpcClient;
import io.podnuma.agent.nri.ttrpc.TtrpcException;
import io.podnuma.agent.nri.ttrpc.TtrpcServer;
import io.podnuma.nri.NriVersion;
import io.podnuma.nri.v1alpha1.ContainerUpdate;
import io.podnuma.nri.v1alpha1.RegisterPluginRequest;
import io.podnuma.nri.v1alpha1.UpdateContainersRequest;
import io.podnuma.nri.v1alpha1.UpdateContainersResponse;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to the runtime, from socket to close: the mux, our Plugin service served on conn 1 (already reading
 * before RegisterPlugin goes out on conn 2, as Configure may arrive before its answer), and our Runtime client on
 * conn 2. Threads (virtual): the mux reader, the conn-1 server reader, the conn-2 client reader, one per request.
 */
final class NriSession {

    /** How long RegisterPlugin may take; the runtime's own registration timeout is 5 s by default. */
    static final Duration REGISTER_TIMEOUT = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(NriSession.class);

    private final NriPluginSettings settings;
    private final Mux mux;
    private final TtrpcClient client;
    private final TtrpcServer server;
    private final Consumer<NriConnectionState> state;
    private volatile RuntimeInfo runtime;
    private volatile boolean synced;

    NriSession(
            SocketChannel channel,
            NriPluginSettings settings,
            NriHandler handler,
            NriStatsRecorder stats,
            Consumer<NriConnectionState> state) {
        this.settings = settings;
        this.state = state;
        this.mux = new Mux(channel, "nri-" + settings.qualifiedName());
        this.client = new TtrpcClient("nri-runtime", frame -> mux.send(MuxChannel.RUNTIME_SERVICE, frame));
        PluginService service = new PluginService(handler, new PluginService.Progress() {
            @Override
            public void configured(RuntimeInfo info, EventMask events) {
                runtime = info;
                LOG.info(
                        "NRI: configured by {} {} (NRI {}), request timeout {} ms, subscribed to events {}",
                        info.name(),
                        info.version(),
                        info.nriVersion().orElse("version not sent"),
                        info.requestTimeout().toMillis(),
                        events);
                state.accept(NriConnectionState.CONFIGURED);
            }

            @Override
            public void synced() {
                synced = true;
                state.accept(NriConnectionState.SYNCED);
            }
        });
        this.server = new TtrpcServer("nri-plugin", service.handlers(), (method, code, nanos) -> {
            stats.answered(method.method(), NriRequestResult.of(code), nanos);
            if (method.equals(NriMethods.plugin("Shutdown"))) {
                mux.close("the runtime sent Shutdown");
            }
        });
    }

    /** Runs the connection until it closes; returns why it closed. */
    String run() {
        mux.start();
        Thread.ofVirtual().name("nri-plugin-service").start(() -> {
            try {
                server.serve(mux.input(MuxChannel.PLUGIN_SERVICE), f -> mux.send(MuxChannel.PLUGIN_SERVICE, f));
            } catch (IOException e) {
                if (!mux.isClosed()) {
                    LOG.warn("NRI: closing the connection: bad data on the plugin service: {}", e.getMessage());
                }
                mux.close("bad data on the plugin service: " + e.getMessage());
            }
        });
        Thread runtimeClient = Thread.ofVirtual().name("nri-runtime-client").start(() -> {
            try {
                client.receive(mux.input(MuxChannel.RUNTIME_SERVICE));
            } catch (IOException e) {
                if (!mux.isClosed()) {
                    LOG.warn("NRI: closing the connection: bad data on the runtime service: {}", e.getMessage());
                }
                mux.close("bad data on the runtime service: " + e.getMessage());
            }
        });
        state.accept(NriConnectionState.REGISTERING);
        byte[] register = RegisterPluginRequest.newBuilder()
                .setPluginName(settings.pluginName())
                .setPluginIdx(settings.pluginIndex())
                .setNRIVersion(NriVersion.SPOKEN)
                .build()
                .toByteArray();
        client.call(NriMethods.REGISTER_PLUGIN, register, REGISTER_TIMEOUT).whenComplete((ok, error) -> {
            if (error != null && mux.isClosed()) {
                LOG.debug("NRI: RegisterPlugin ended with the connection: {}", error.getMessage());
            } else if (error != null) {
                LOG.warn("NRI: RegisterPlugin as {} failed: {}", settings.qualifiedName(), error.getMessage());
                mux.close("RegisterPlugin failed: " + error.getMessage());
            } else {
                LOG.info("NRI: registered as {}", settings.qualifiedName());
            }
        });
        String reason = mux.closed().join();
        // The reader ends once it has read the answers the runtime sent before the end; only then fail the rest.
        try {
            runtimeClient.join(Mux.DRAIN_LIMIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close("the NRI connection closed: " + reason);
        return reason;
    }

    boolean synced() {
        return synced;
    }

    void close(String reason) {
        mux.close(reason);
    }

    CompletableFuture<List<ContainerUpdate>> updateContainers(List<ContainerUpdate> updates) {
        RuntimeInfo info = runtime;
        Duration timeout = info == null ? PluginService.DEFAULT_REQUEST_TIMEOUT : info.requestTimeout();
        byte[] request = UpdateContainersRequest.newBuilder()
                .addAllUpdate(updates)
                .build()
                .toByteArray();
        return client.call(NriMethods.UPDATE_CONTAINERS, request, timeout).thenApply(NriSession::failed);
    }

    private static List<ContainerUpdate> failed(byte[] response) {
        try {
            return UpdateContainersResponse.parseFrom(response).getFailedList();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(new TtrpcException(
                    StatusCode.INTERNAL, "undecodable UpdateContainers response: " + e.getMessage()));
        }
    }
}
