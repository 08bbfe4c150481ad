package io.podnuma.controlplane;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** Polls a health endpoint (etcd /health, apiserver /readyz, /healthz of the controllers) until it says ok. */
final class HealthProbe {

    private static final Duration POLL = Duration.ofMillis(250);

    private final HttpClient http;

    private HealthProbe(SSLContext ssl) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        if (ssl != null) {
            builder.sslContext(ssl);
        }
        this.http = builder.build();
    }

    /** For plain HTTP only (a Prometheus on loopback). */
    static HealthProbe plainHttp() {
        return new HealthProbe(null);
    }

    /** For plain HTTP (etcd on loopback) and for servers whose certificate our CA signed. */
    static HealthProbe trusting(Path caCert) {
        try (InputStream in = Files.newInputStream(caCert)) {
            X509Certificate ca =
                    (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry("podnuma-ca", ca);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, factory.getTrustManagers(), new SecureRandom());
            return new HealthProbe(ssl);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the control plane CA " + caCert + ": " + e.getMessage(), e);
        }
    }

    /**
     * For the controller-manager and scheduler, which serve /healthz with a self-signed certificate they
     * generate themselves; only ever used against loopback ports we chose.
     */
    static HealthProbe trustingSelfSigned() {
        try {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, new TrustManager[] {new AcceptAnyServer()}, new SecureRandom());
            return new HealthProbe(ssl);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS for health checks: " + e.getMessage(), e);
        }
    }

    /** Waits until {@code uri} answers 200, failing early (with its log) when {@code process} dies. */
    void await(URI uri, ManagedProcess process, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        String last = "no answer yet";
        while (true) {
            process.requireAlive();
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(5))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                last = "HTTP " + response.statusCode() + ": " + response.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + process.name(), e);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(process.name() + " was not healthy at " + uri + " within " + timeout
                        + " (last answer: " + last + "); its log "
                        + process.log().toAbsolutePath() + " ends with:"
                        + System.lineSeparator() + process.tail(40));
            }
            sleep();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling a health endpoint", e);
        }
    }

    /**
     * Extends the "extended" trust manager on purpose: the JDK wraps a plain one in a wrapper that still
     * verifies the host name, which a self-signed controller certificate may not carry.
     */
    private static final class AcceptAnyServer extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("client side only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            throw new UnsupportedOperationException("client side only");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            throw new UnsupportedOperationException("client side only");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // loopback health checks of processes we started ourselves
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            // as above
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            // as above
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
