package io.podnuma.agent.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.podnuma.securemetrics.SecureServing;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small HTTP server for the agent's probes and scrapes: GET (and HEAD) of exact paths, 404 for any other path, 405
 * for other methods. Plain HTTP ({@link #start}) or, for {@code /metrics} with {@code metricsSecurity: https}, TLS
 * with every request behind a {@link SecureServing} gate ({@link #startSecure}): without a token allowed to get
 * {@code /metrics}, a request gets 401 or 403 before any path is looked at. One daemon thread; {@link #close()}
 * stops it.
 */
public final class HttpEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);

    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, Route> routes;

    private HttpEndpoint(HttpServer server, ExecutorService executor, Map<String, Route> routes) {
        this.server = server;
        this.executor = executor;
        this.routes = routes;
    }

    /**
     * Binds {@code bindAddress:port} (port 0 picks a free one) and serves {@code routes}, keyed by exact path.
     *
     * @throws UncheckedIOException naming the address when it cannot be bound
     */
    public static HttpEndpoint start(String bindAddress, int port, Map<String, Route> routes) {
        return start(bindAddress, port, routes, HttpServer::create, handler -> handler);
    }

    /**
     * {@link #start} over HTTPS: the TLS context and the token gate of {@code serving} in front of every route.
     *
     * @throws UncheckedIOException naming the address when it cannot be bound
     */
    public static HttpEndpoint startSecure(
            String bindAddress, int port, Map<String, Route> routes, SecureServing serving) {
        Objects.requireNonNull(serving, "serving");
        return start(bindAddress, port, routes, (address, backlog) -> serving.bind(address), serving::guard);
    }

    @FunctionalInterface
    private interface ServerFactory {
        HttpServer create(InetSocketAddress address, int backlog) throws IOException;
    }

    private static HttpEndpoint start(
            String bindAddress,
            int port,
            Map<String, Route> routes,
            ServerFactory factory,
            UnaryOperator<HttpHandler> guard) {
        Objects.requireNonNull(bindAddress, "bindAddress");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(
                    "HTTP port " + port + " is out of range: allowed 0..65535 (0 = any free)");
        }
        Map<String, Route> copy = new TreeMap<>(routes);
        copy.keySet().forEach(path -> {
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException("route \"" + path + "\" must start with /");
            }
        });
        InetSocketAddress address = new InetSocketAddress(bindAddress, port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("bind address \"" + bindAddress + "\" does not resolve");
        }
        HttpServer server;
        try {
            server = factory.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "podnuma-http-" + port);
            t.setDaemon(true);
            return t;
        });
        HttpEndpoint endpoint = new HttpEndpoint(server, executor, copy);
        // One root context: the JDK matches contexts by prefix, and /metricsfoo must be a 404.
        server.createContext("/", guard.apply(endpoint::handle));
        server.setExecutor(executor);
        server.start();
        return endpoint;
    }

    /** The port actually bound (useful when started on port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            Route route = routes.get(exchange.getRequestURI().getPath());
            Response response;
            if (route == null) {
                response = Response.text(
                        404,
                        "not found: " + exchange.getRequestURI().getPath() + " (serving "
                                + String.join(", ", routes.keySet()) + ")\n");
            } else if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                response = Response.text(405, "method " + method + " not allowed: use GET or HEAD\n");
            } else {
                response = answer(route);
            }
            exchange.getResponseHeaders().set("Content-Type", response.contentType());
            byte[] body = response.bytes();
            boolean head = method.equals("HEAD");
            exchange.sendResponseHeaders(response.status(), head ? -1 : (body.length == 0 ? -1 : body.length));
            if (!head && body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    private static Response answer(Route route) {
        try {
            return route.get();
        } catch (RuntimeException e) {
            LOG.warn("HTTP route failed", e);
            return Response.text(500, "internal error: " + e.getMessage() + "\n");
        }
    }

    /** Stops accepting, gives exchanges in flight up to a second, and stops the thread. */
    @Override
    public void close() {
        server.stop(1);
        executor.shutdownNow();
    }
}
