package io.podnuma.agent.nri;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.podnuma.agent.nri.mux.Mux;
import io.podnuma.agent.nri.mux.MuxChannel;
import io.podnuma.agent.nri.ttrpc.ServiceMethod;
import io.podnuma.agent.nri.ttrpc.TtrpcClient;
import io.podnuma.agent.nri.ttrpc.TtrpcException;
import io.podnuma.agent.nri.ttrpc.TtrpcServer;
import io.podnuma.agent.nri.ttrpc.UnaryHandler;
import io.podnuma.nri.v1alpha1.ConfigureRequest;
import io.podnuma.nri.v1alpha1.ConfigureResponse;
import io.podnuma.nri.v1alpha1.RegisterPluginRequest;
import io.podnuma.nri.v1alpha1.UpdateContainersRequest;
import io.podnuma.nri.v1alpha1.UpdateContainersResponse;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A runtime's side of NRI for tests, built from our own mux and ttrpc: it listens on a unix socket, serves the
 * Runtime service on conn 2 and calls the plugin on conn 1. Like the upstream adaptation, it sends Configure from
 * inside the RegisterPlugin handler; stricter than upstream, it answers RegisterPlugin only after Configure was
 * answered, so a plugin that waits for its registration before serving would hang here.
 */
final class FakeRuntime implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(10);

    private final ServerSocketChannel listener;

    FakeRuntime(Path socket) throws IOException {
        listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(socket));
    }

    /** The next connection, without speaking on it. */
    SocketChannel acceptRaw() throws Exception {
        CompletableFuture<SocketChannel> accepted = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                accepted.complete(listener.accept());
            } catch (IOException e) {
                accepted.completeExceptionally(e);
            }
        });
        return accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The next connection, served as a runtime. */
    Session accept() throws Exception {
        return new Session(acceptRaw());
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }

    static final class Session implements AutoCloseable {

        final Mux mux;
        final LinkedBlockingQueue<RegisterPluginRequest> registrations = new LinkedBlockingQueue<>();
        final LinkedBlockingQueue<UpdateContainersRequest> updateRequests = new LinkedBlockingQueue<>();
        final CompletableFuture<ConfigureResponse> configured = new CompletableFuture<>();
        private final TtrpcClient client;

        Session(SocketChannel channel) {
            mux = new Mux(channel, "fake-runtime").start();
            client = new TtrpcClient("fake-runtime", f -> mux.send(MuxChannel.PLUGIN_SERVICE, f));
            Map<ServiceMethod, UnaryHandler> handlers = Map.of(
                    NriMethods.REGISTER_PLUGIN, this::register,
                    NriMethods.UPDATE_CONTAINERS, this::updateContainers);
            TtrpcServer server = new TtrpcServer("fake-runtime", handlers, (m, c, n) -> {});
            Thread.ofVirtual().start(() -> {
                try {
                    server.serve(mux.input(MuxChannel.RUNTIME_SERVICE), f -> mux.send(MuxChannel.RUNTIME_SERVICE, f));
                } catch (IOException e) {
                    mux.close("fake runtime server: " + e.getMessage());
                }
            });
            Thread.ofVirtual().start(() -> {
                try {
                    client.receive(mux.input(MuxChannel.PLUGIN_SERVICE));
                } catch (IOException e) {
                    mux.close("fake runtime client: " + e.getMessage());
                }
            });
        }

        private byte[] register(byte[] bytes) throws Exception {
            registrations.add(RegisterPluginRequest.parseFrom(bytes));
            ConfigureRequest configure = ConfigureRequest.newBuilder()
                    .setRuntimeName("fake-runtime")
                    .setRuntimeVersion("2.4.2")
                    .setRegistrationTimeout(5000)
                    .setRequestTimeout(2000)
                    .setNRIVersion("v0.12.3")
                    .build();
            try {
                configured.complete(call("Configure", configure, ConfigureResponse.parser()));
            } catch (Exception e) {
                configured.completeExceptionally(e);
            }
            return new byte[0];
        }

        private byte[] updateContainers(byte[] bytes) throws Exception {
            UpdateContainersRequest request = UpdateContainersRequest.parseFrom(bytes);
            updateRequests.add(request);
            UpdateContainersResponse.Builder response = UpdateContainersResponse.newBuilder();
            if (request.getUpdateCount() > 0) {
                response.addFailed(request.getUpdate(0)); // the first one "fails"
            }
            return response.build().toByteArray();
        }

        /** Calls a Plugin method; a non-OK status throws its {@link TtrpcException}. */
        <T> T call(String method, Message request, Parser<T> response) throws Exception {
            return call(method, request, response, Duration.ofSeconds(2));
        }

        <T> T call(String method, Message request, Parser<T> response, Duration timeout) throws Exception {
            byte[] bytes;
            try {
                bytes = client.call(new ServiceMethod(NriMethods.PLUGIN, method), request.toByteArray(), timeout)
                        .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TtrpcException t) {
                    throw t;
                }
                throw e;
            }
            try {
                return response.parseFrom(bytes);
            } catch (InvalidProtocolBufferException e) {
                throw new AssertionError("undecodable " + method + " answer", e);
            }
        }

        @Override
        public void close() {
            mux.close("the fake runtime closed the connection");
        }
    }
}
