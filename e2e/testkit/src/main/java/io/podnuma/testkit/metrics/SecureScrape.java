package io.podnuma.testkit.metrics;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Scrapes {@code https://127.0.0.1:<port>/metrics} the way Prometheus does with {@code insecure_skip_verify}: the
 * podnuma processes under test serve a self-signed certificate made at start, which no CA vouches for. What is under
 * test is the token check, and that plain HTTP gets nothing.
 */
public final class SecureScrape {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private SecureScrape() {}

    /** {@code GET /metrics} with {@code Authorization: Bearer <token>}, or without the header when null. */
    public static HttpResponse<String> get(int port, String token) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(trustingEveryCertificate())
                .sslParameters(noHostnameCheck())
                .connectTimeout(TIMEOUT)
                .build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/metrics"))
                .timeout(TIMEOUT);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The certificate the port serves. */
    public static X509Certificate certificate(int port) throws IOException {
        try (SSLSocket s =
                (SSLSocket) trustingEveryCertificate().getSocketFactory().createSocket("127.0.0.1", port)) {
            s.setSoTimeout((int) TIMEOUT.toMillis());
            s.startHandshake();
            return (X509Certificate) s.getSession().getPeerCertificates()[0];
        }
    }

    /**
     * Sends a plain-HTTP {@code GET /metrics} with a good token to the TLS port and returns whatever comes back (empty
     * when the server closes or resets the connection).
     */
    public static String plainHttp(int port, String token) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout((int) TIMEOUT.toMillis());
            s.getOutputStream()
                    .write(("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                                    + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            try {
                return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (java.net.SocketException reset) {
                return "";
            }
        }
    }

    private static SSLParameters noHostnameCheck() {
        SSLParameters p = new SSLParameters();
        p.setEndpointIdentificationAlgorithm(null);
        return p;
    }

    private static SSLContext trustingEveryCertificate() {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(
                    null,
                    new TrustManager[] {
                        new X509TrustManager() {
                            @Override
                            public void checkClientTrusted(X509Certificate[] chain, String auth) {}

                            @Override
                            public void checkServerTrusted(X509Certificate[] chain, String auth) {}

                            @Override
                            public X509Certificate[] getAcceptedIssuers() {
                                return new X509Certificate[0];
                            }
                        }
                    },
                    null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
