package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The whole path on a real HTTPS server with a self-signed certificate; the reviews are faked here (see the IT). */
class SecureServingTest {

    private final FakeReviews reviews = new FakeReviews();
    private SecureServing serving;
    private HttpsServer server;
    private String url;
    private X509Certificate cert;

    @BeforeEach
    void start() throws IOException {
        serving = SecureServing.create(
                SecureMetricsSettings.selfSigned(),
                reviews,
                "podnuma-test",
                List.of("localhost", "127.0.0.1"),
                Clock.systemUTC());
        server = serve(serving);
        url = "https://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
        cert = selfSignedLeaf(server);
    }

    private static HttpsServer serve(SecureServing serving) throws IOException {
        HttpsServer s = serving.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        s.createContext("/metrics", serving.guard(ex -> {
            byte[] body = "podnuma_up 1\n".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }));
        s.start();
        return s;
    }

    private static X509Certificate selfSignedLeaf(HttpsServer server) {
        try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) trustAll()
                .getSocketFactory()
                .createSocket("127.0.0.1", server.getAddress().getPort())) {
            s.startHandshake();
            return (X509Certificate) s.getSession().getPeerCertificates()[0];
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** cert-manager's ECDSA Secrets hold SEC1 keys: a scrape completes the handshake on either curve it offers. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"ec-sec1", "ec-sec1-p384"})
    void servesAMountedPairWithAnSec1Key(String kind, @TempDir Path dir) throws Exception {
        OpenSsl.assumePresent();
        OpenSsl.pair(dir, "tls", kind);
        SecureServing fromFiles = SecureServing.create(
                new SecureMetricsSettings(
                        Optional.of(dir.resolve("tls.crt")),
                        Optional.of(dir.resolve("tls.key")),
                        Duration.ofMinutes(1)),
                reviews,
                "podnuma-test",
                List.of("localhost", "127.0.0.1"),
                Clock.systemUTC());
        HttpsServer s = serve(fromFiles);
        try {
            X509Certificate served = selfSignedLeaf(s);
            assertThat(served.getSubjectX500Principal().getName()).isEqualTo("CN=tls");
            HttpResponse<String> r = TlsClients.get(
                    TlsClients.trusting(served),
                    "https://127.0.0.1:" + s.getAddress().getPort() + "/metrics",
                    "Bearer reader");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("podnuma_up 1\n");
        } finally {
            s.stop(0);
        }
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(
            nullValues = "NULL",
            value = {
                "NULL, 401, unauthenticated: no Authorization header",
                "Bearer forged, 401, the API server does not accept this token",
                "Bearer stranger, 403, may not get /metrics",
                "Bearer down, 503, cannot check the token",
                "Bearer reader, 200, podnuma_up 1",
            })
    void answersEachKindOfScrape(String authorization, int status, String body) throws Exception {
        HttpResponse<String> r = TlsClients.get(TlsClients.trusting(cert), url, authorization);
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(r.body()).contains(body);
        if (status == 401) {
            assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"podnuma\"");
        }
    }

    /**
     * Budget 1, refilled once a second: the reader's review spends it, so the next unknown tokens are refused without
     * a review until a second has passed. The loop stops at the first 429; 50 unknown tokens all reviewed would fail.
     */
    @Test
    void aFloodOfUnknownTokensGets429WithRetryAfterWhileACachedTokenStillGets200() throws Exception {
        SecureServing tight = SecureServing.create(
                SecureMetricsSettings.selfSigned().withReviewRate(new ReviewRate(1, 1)),
                reviews,
                "podnuma-test",
                List.of("127.0.0.1"),
                Clock.systemUTC());
        HttpsServer other = serve(tight);
        try {
            String otherUrl = "https://127.0.0.1:" + other.getAddress().getPort() + "/metrics";
            var client = TlsClients.trusting(selfSignedLeaf(other));
            assertThat(TlsClients.get(client, otherUrl, "Bearer reader").statusCode())
                    .isEqualTo(200);
            HttpResponse<String> throttled = null;
            int sent = 0;
            while (throttled == null && sent < 50) {
                HttpResponse<String> r = TlsClients.get(client, otherUrl, "Bearer random-" + sent++);
                if (r.statusCode() == 429) {
                    throttled = r;
                } else {
                    assertThat(r.statusCode()).isEqualTo(401);
                }
            }
            assertThat(throttled).as("a 429 among %d unknown tokens", sent).isNotNull();
            assertThat(throttled.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(throttled.headers().firstValue("WWW-Authenticate")).isEmpty();
            assertThat(throttled.body())
                    .startsWith("429 throttled: too many bearer tokens without a recent decision: 1 at once, then 1"
                            + " a second, are checked with the API server; retry in 1 s");
            assertThat(reviews.tokenReviews.get())
                    .as("the throttled token was not reviewed")
                    .isEqualTo(sent);
            assertThat(TlsClients.get(client, otherUrl, "Bearer reader").body()).isEqualTo("podnuma_up 1\n");
        } finally {
            other.stop(0);
        }
    }

    @Test
    void theSelfSignedCertificateNamesTheAddressesAndServesOnlyTls12And13() throws Exception {
        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=podnuma-test");
        assertThat(cert.getSubjectAlternativeNames())
                .extracting(l -> (Object) l.get(1))
                .containsExactly("localhost", "127.0.0.1");
        assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(cert.getBasicConstraints()).isEqualTo(-1);
        cert.verify(cert.getPublicKey());
        assertThat(Duration.between(
                        cert.getNotBefore().toInstant(), cert.getNotAfter().toInstant()))
                .isEqualTo(SelfSignedCertificate.VALIDITY.plusHours(1));
        // Hostname verification passes for the IP SAN (the client trusts only this certificate).
        assertThat(TlsClients.get(TlsClients.trusting(cert), url, "Bearer reader")
                        .statusCode())
                .isEqualTo(200);

        SSLContext tls11 = SSLContext.getInstance("TLSv1.1");
        tls11.init(null, new javax.net.ssl.TrustManager[] {trustAllManager()}, null);
        try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) tls11.getSocketFactory()
                .createSocket("127.0.0.1", server.getAddress().getPort())) {
            s.setEnabledProtocols(new String[] {"TLSv1.1"});
            assertThatThrownBy(s::startHandshake).isInstanceOf(IOException.class);
        }
    }

    @Test
    void anUntrustedCertificateFailsTheHandshake() {
        X509Certificate other = SelfSignedCertificate.create("other", List.of("127.0.0.1"), java.time.Instant.now())
                .leaf();
        assertThatThrownBy(() -> TlsClients.get(TlsClients.trusting(other), url, "Bearer reader"))
                .isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void plainHttpToTheTlsPortGetsNoHttpAnswer() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.getAddress().getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer reader\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] got = readAll(in);
            assertThat(new String(got, StandardCharsets.ISO_8859_1))
                    .doesNotContain("HTTP/1.1")
                    .doesNotContain("podnuma_up");
        }
        assertThat(reviews.tokenReviews).hasValue(0);
    }

    private static byte[] readAll(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        byte[] b = new byte[4096];
        try {
            for (int n; (n = in.read(b)) > 0; ) {
                buf.write(b, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // a reset is a refusal too
        }
        return buf.toByteArray();
    }

    private static SSLContext trustAll() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new javax.net.ssl.TrustManager[] {trustAllManager()}, null);
        return ctx;
    }

    private static javax.net.ssl.X509TrustManager trustAllManager() {
        return new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
    }
}
