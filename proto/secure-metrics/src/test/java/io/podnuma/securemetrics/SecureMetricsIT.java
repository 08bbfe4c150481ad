package io.podnuma.securemetrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The secure endpoint against the real kube-apiserver: real service-account tokens (TokenRequest), real RBAC, real
 * TokenReview and SubjectAccessReview answers.
 */
@ExtendWith(ControlPlaneExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecureMetricsIT {

    /** Its own name per run: without a controller-manager a deleted namespace stays Terminating. */
    private static final String NS = "secure-metrics-it-" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);

    private static final String ROLE = "secure-metrics-it-reader";

    private KubernetesClient admin;
    private final AtomicInteger tokenReviews = new AtomicInteger();
    private final AtomicInteger accessReviews = new AtomicInteger();
    private HttpsServer server;
    private String url;
    private HttpClient https;
    private String readerToken;
    private String strangerToken;

    @BeforeAll
    void start(ControlPlane plane) throws Exception {
        admin = plane.client();
        cleanUp();
        admin.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .endMetadata()
                        .build())
                .create();
        for (String sa : List.of("reader", "stranger")) {
            admin.serviceAccounts()
                    .inNamespace(NS)
                    .resource(new ServiceAccountBuilder()
                            .withNewMetadata()
                            .withName(sa)
                            .endMetadata()
                            .build())
                    .create();
        }
        // What the chart's metrics-reader ClusterRole grants, bound to one of the two.
        admin.rbac()
                .clusterRoles()
                .resource(new ClusterRoleBuilder()
                        .withNewMetadata()
                        .withName(ROLE)
                        .endMetadata()
                        .addNewRule()
                        .withNonResourceURLs("/metrics")
                        .withVerbs("get")
                        .endRule()
                        .build())
                .create();
        admin.rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName(ROLE)
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", ROLE)
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withName("reader")
                        .withNamespace(NS)
                        .endSubject()
                        .build())
                .create();
        readerToken = token("reader");
        strangerToken = token("stranger");

        KubeAccessReviews real = new KubeAccessReviews(admin);
        AccessReviews counted = new AccessReviews() {
            @Override
            public Optional<Requester> authenticate(BearerToken token) {
                tokenReviews.incrementAndGet();
                return real.authenticate(token);
            }

            @Override
            public boolean allowed(Requester requester, NonResourceRequest request) {
                accessReviews.incrementAndGet();
                return real.allowed(requester, request);
            }
        };
        SecureServing serving = SecureServing.create(
                SecureMetricsSettings.selfSigned(),
                counted,
                "secure-metrics-it",
                List.of("127.0.0.1"),
                Clock.systemUTC());
        server = serving.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        server.createContext("/metrics", serving.guard(ex -> {
            byte[] body = "# TYPE podnuma_up gauge\npodnuma_up 1\n".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }));
        server.start();
        url = "https://127.0.0.1:" + server.getAddress().getPort() + "/metrics";
        https = TlsClients.trusting(leaf());
    }

    private String token(String sa) {
        return admin.serviceAccounts()
                .inNamespace(NS)
                .withName(sa)
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(600L)
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
    }

    private X509Certificate leaf() throws Exception {
        javax.net.ssl.SSLContext trustAll = javax.net.ssl.SSLContext.getInstance("TLS");
        trustAll.init(
                null,
                new javax.net.ssl.TrustManager[] {
                    new javax.net.ssl.X509TrustManager() {
                        @Override
                        public void checkClientTrusted(X509Certificate[] c, String a) {}

                        @Override
                        public void checkServerTrusted(X509Certificate[] c, String a) {}

                        @Override
                        public X509Certificate[] getAcceptedIssuers() {
                            return new X509Certificate[0];
                        }
                    }
                },
                null);
        try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) trustAll.getSocketFactory()
                .createSocket("127.0.0.1", server.getAddress().getPort())) {
            s.startHandshake();
            return (X509Certificate) s.getSession().getPeerCertificates()[0];
        }
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        cleanUp();
    }

    private void cleanUp() {
        admin.rbac().clusterRoleBindings().withName(ROLE).delete();
        admin.rbac().clusterRoles().withName(ROLE).delete();
        admin.namespaces().withName(NS).delete();
    }

    @Test
    void noTokenIs401() throws Exception {
        HttpResponse<String> r = TlsClients.get(https, url, null);
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("no Authorization header");
    }

    @Test
    void aForgedTokenIs401() throws Exception {
        HttpResponse<String> r =
                TlsClients.get(https, url, "Bearer " + readerToken.substring(0, readerToken.length() - 4) + "AAAA");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.body()).contains("the API server does not accept this token");
    }

    @Test
    void aServiceAccountWithoutTheRoleIs403() throws Exception {
        HttpResponse<String> r = TlsClients.get(https, url, "Bearer " + strangerToken);
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("user \"system:serviceaccount:" + NS + ":stranger\" may not get /metrics");
    }

    @Test
    void theMetricsReaderGetsTheMetricsWithOneReviewForManyScrapes() throws Exception {
        int tokenBefore = tokenReviews.get();
        int accessBefore = accessReviews.get();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = TlsClients.get(https, url, "Bearer " + readerToken);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("podnuma_up 1");
        }
        assertThat(tokenReviews.get() - tokenBefore).isLessThanOrEqualTo(1);
        assertThat(accessReviews.get() - accessBefore).isLessThanOrEqualTo(1);
        assertThat(tokenReviews.get())
                .as("the reader's token was reviewed at least once")
                .isPositive();
    }

    @Test
    void plainHttpToTheTlsPortIsRefused() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.getAddress().getPort())) {
            s.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
            s.getOutputStream()
                    .write(("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + readerToken + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            byte[] got;
            try {
                got = s.getInputStream().readAllBytes();
            } catch (java.net.SocketException reset) {
                got = new byte[0];
            }
            assertThat(new String(got, StandardCharsets.ISO_8859_1))
                    .doesNotContain("podnuma_up")
                    .doesNotStartWith("HTTP/");
        }
    }
}
