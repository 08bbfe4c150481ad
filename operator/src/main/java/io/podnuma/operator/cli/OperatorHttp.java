package io.podnuma.operator.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.podnuma.securemetrics.SecureServing;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operator's two small HTTP servers: {@code /healthz} and {@code /readyz} on the health port, {@code /metrics}
 * (Prometheus text) on the metrics port, so a NetworkPolicy or a ServiceMonitor can treat them apart. With
 * {@code metricsSecurity: https} the metrics port speaks TLS and every request passes the {@link SecureServing} gate
 * first; the health port stays plain HTTP, for the kubelet's probes that carry no token.
 */
final class OperatorHttp implements AutoCloseable {

    private final HttpServer health;
    private final HttpServer metrics;

    private OperatorHttp(HttpServer health, HttpServer metrics) {
        this.health = health;
        this.metrics = metrics;
    }

    /**
     * @param live whether the process works (false once it is stopping)
     * @param ready whether the operator's informers are healthy
     */
    static OperatorHttp start(
            int healthPort,
            int metricsPort,
            Optional<SecureServing> secure,
            BooleanSupplier live,
            BooleanSupplier ready,
            PrometheusMeterRegistry registry) {
        try {
            HttpServer h = HttpServer.create(new InetSocketAddress(healthPort), 0);
            h.createContext("/healthz", ex -> answer(ex, live.getAsBoolean(), () -> "ok\n"));
            h.createContext("/readyz", ex -> answer(ex, ready.getAsBoolean(), () -> "ready\n"));
            InetSocketAddress metricsAddress = new InetSocketAddress(metricsPort);
            HttpServer m =
                    secure.isPresent() ? secure.get().bind(metricsAddress) : HttpServer.create(metricsAddress, 0);
            HttpHandler scrape = ex -> answer(ex, true, registry::scrape);
            m.createContext("/metrics", secure.map(s -> s.guard(scrape)).orElse(scrape));
            h.start();
            m.start();
            return new OperatorHttp(h, m);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot listen on the health port " + healthPort + " or the metrics port " + metricsPort + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static void answer(HttpExchange ex, boolean ok, Supplier<String> body) throws IOException {
        byte[] bytes = (ok ? body.get() : "not ok\n").getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        ex.sendResponseHeaders(ok ? 200 : 503, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        health.stop(0);
        metrics.stop(0);
    }
}
