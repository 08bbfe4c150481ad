package io.podnuma.securemetrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The secure way to serve {@code /metrics}: a TLS context over the serving certificate (files reloaded on change,
 * or self-signed) and a {@link MetricsGate} in front of the handler. One instance per endpoint.
 */
public final class SecureServing {

    /** TLS 1.2 and 1.3 only, as the kubelet's and controller-runtime's servers default to. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SSLContext context;
    private final MetricsGate gate;
    private final String certificate;

    private SecureServing(SSLContext context, MetricsGate gate, String certificate) {
        this.context = context;
        this.gate = gate;
        this.certificate = certificate;
    }

    /**
     * @param commonName and {@code names} are used only for a self-signed certificate (its CN and SANs)
     * @throws IllegalArgumentException naming the certificate file and its problem
     */
    public static SecureServing create(
            SecureMetricsSettings settings, AccessReviews reviews, String commonName, List<String> names, Clock clock) {
        return create(settings, reviews, commonName, names, clock, System::nanoTime);
    }

    /**
     * As {@link #create(SecureMetricsSettings, AccessReviews, String, List, Clock)}, with the review budget refilled
     * by {@code nanoClock} (a test's clock that stands still makes the budget exact).
     */
    public static SecureServing create(
            SecureMetricsSettings settings,
            AccessReviews reviews,
            String commonName,
            List<String> names,
            Clock clock,
            LongSupplier nanoClock) {
        KeySource keys;
        String certificate;
        if (settings.certFile().isPresent()) {
            keys = CertificateFiles.load(
                    settings.certFile().get(), settings.keyFile().get(), CertificateFiles.DEFAULT_CHECK_EVERY, clock);
            certificate = "the certificate " + settings.certFile().get() + " (reloaded when it changes)";
        } else {
            keys = KeySource.fixed(SelfSignedCertificate.create(commonName, names, clock.instant()));
            certificate = "a self-signed certificate made at start (CN " + commonName + ")";
        }
        return new SecureServing(
                tlsContext(keys),
                MetricsGate.forScrapes(
                        reviews, settings.cacheTtl(), settings.reviewRate().bucket(nanoClock), clock),
                certificate);
    }

    static SSLContext tlsContext(KeySource keys) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(new KeyManager[] {new SwitchingKeyManager(keys)}, null, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** Where the certificate comes from, for the start-up log. */
    public String certificate() {
        return certificate;
    }

    /** An HTTPS server bound to {@code address}, not started. */
    public HttpsServer bind(InetSocketAddress address) throws IOException {
        HttpsServer server = HttpsServer.create(address, 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = getSSLContext().getDefaultSSLParameters();
                p.setProtocols(PROTOCOLS);
                p.setNeedClientAuth(false);
                params.setSSLParameters(p);
            }
        });
        return server;
    }

    /**
     * {@code inner} behind the gate: it runs only for an allowed scrape; the others get 401, 403, 503, or 429 with
     * {@code Retry-After} when too many unknown tokens arrive at once.
     */
    public HttpHandler guard(HttpHandler inner) {
        Objects.requireNonNull(inner, "inner");
        return exchange -> {
            Decision d = gate.admit(exchange.getRequestHeaders().getFirst("Authorization"));
            if (d.verdict() == Verdict.ALLOWED) {
                inner.handle(exchange);
            } else {
                refuse(exchange, d);
            }
        };
    }

    private static void refuse(HttpExchange exchange, Decision d) throws IOException {
        try (exchange) {
            if (d.verdict() == Verdict.UNAUTHENTICATED) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"podnuma\"");
            }
            d.retryAfterSeconds().ifPresent(s -> exchange.getResponseHeaders().set("Retry-After", Long.toString(s)));
            byte[] body = (d.verdict().httpStatus() + " " + d.verdict().name().toLowerCase(java.util.Locale.ROOT) + ": "
                            + d.reason() + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(d.verdict().httpStatus(), head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }
}
