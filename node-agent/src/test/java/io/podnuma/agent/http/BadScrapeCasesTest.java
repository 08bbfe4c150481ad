package io.podnuma.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.securemetrics.AccessReviews;
import io.podnuma.securemetrics.BearerToken;
import io.podnuma.securemetrics.NonResourceRequest;
import io.podnuma.securemetrics.Requester;
import io.podnuma.securemetrics.ReviewRate;
import io.podnuma.securemetrics.SecureMetricsSettings;
import io.podnuma.securemetrics.SecureServing;
import io.podnuma.testkit.badinput.BadInput;
import io.podnuma.testkit.badinput.BadInputDoc;
import io.podnuma.testkit.badinput.InputKind;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's scrapes, sent to the agent's metrics endpoint over HTTPS with the token gate in front (the API
 * server's reviews faked: only {@code reader} is a valid token, and it may get /metrics). The review budget's clock
 * stands still, so the flood's split between reviewed and refused scrapes is exact. Afterwards the reader, decided
 * before the case, still gets the metrics without a new review.
 */
class BadScrapeCasesTest {

    private static final InputKind KIND = InputKind.METRICS_SCRAPE;
    private static final String KEPT =
            "a token decided before (the reader's) still gets 200 and the metrics, without another review";
    private static final ReviewRate RATE = new ReviewRate(4, 1);
    private static final String METRICS = "podnuma_up 1\n";

    private final Reviews reviews = new Reviews();
    private HttpEndpoint endpoint;
    private SSLSocketFactory tls;

    static List<BadInput> cases() {
        return List.of(
                BadInput.of(
                        "scrape-no-token",
                        KIND,
                        "no Authorization header",
                        "GET /metrics",
                        "401 unauthenticated: no Authorization header: send a bearer token (Authorization: Bearer"
                                + " <token>)",
                        KEPT),
                BadInput.of(
                        "scrape-basic-auth",
                        KIND,
                        "a user and password instead of a bearer token",
                        "GET /metrics, Authorization: Basic dXNlcjpwYXNz",
                        "401 unauthenticated: the Authorization header holds no usable bearer token",
                        KEPT),
                BadInput.of(
                        "scrape-forged-token",
                        KIND,
                        "a token the API server does not accept",
                        "GET /metrics, Authorization: Bearer forged",
                        "401 unauthenticated: the API server does not accept this token",
                        KEPT),
                new BadInput(
                        "scrape-token-flood",
                        KIND,
                        "a flood of distinct tokens past the review budget (burst 4, 1 a second, the reader's review"
                                + " took one)",
                        "GET /metrics 10 times, each with another unknown bearer token",
                        List.of(
                                "3 × 401 unauthenticated: the API server does not accept this token",
                                "7 × 429 throttled, Retry-After 1: too many bearer tokens without a recent decision:"
                                        + " 4 at once, then 1 a second, are checked with the API server; retry in 1 s"
                                        + " (tokens checked recently are still answered)",
                                "TokenReviews asked: 3"),
                        KEPT));
    }

    @BeforeEach
    void start() throws Exception {
        SecureServing serving = SecureServing.create(
                SecureMetricsSettings.selfSigned().withReviewRate(RATE),
                reviews,
                "podnuma-test",
                List.of("127.0.0.1"),
                Clock.systemUTC(),
                () -> 0L);
        endpoint = HttpEndpoint.startSecure(
                "127.0.0.1", 0, Map.of("/metrics", () -> Response.text(200, METRICS)), serving);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {new TrustingManager()}, null);
        tls = ctx.getSocketFactory();
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theGateAnswersExactlyAndKeepsAnsweringKnownTokens(BadInput c) throws Exception {
        assertThat(scrape("Bearer reader")).isEqualTo(new Answer(200, METRICS, Optional.empty()));

        List<String> answer = switch (c.id()) {
            case "scrape-no-token" -> List.of(scrape(null).line());
            case "scrape-basic-auth" -> List.of(scrape("Basic dXNlcjpwYXNz").line());
            case "scrape-forged-token" -> List.of(scrape("Bearer forged").line());
            case "scrape-token-flood" -> flood(10);
            default -> throw new IllegalArgumentException("no runner for " + c.id());
        };
        c.assertAnswer(answer);

        int reviewsAfter = reviews.tokenReviews.get();
        assertThat(scrape("Bearer reader")).isEqualTo(new Answer(200, METRICS, Optional.empty()));
        assertThat(reviews.tokenReviews)
                .as("the reader answered from the cache")
                .hasValue(reviewsAfter);
    }

    /** Each answer once, with how many scrapes got it, in the order first seen; then the reviews the flood cost. */
    private List<String> flood(int scrapes) throws IOException {
        int before = reviews.tokenReviews.get();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i < scrapes; i++) {
            Answer a = scrape("Bearer unknown-" + i);
            String line = a.status() + " " + a.verdictAndReason(a.retryAfter().map(s -> ", Retry-After " + s));
            counts.merge(line, 1, Integer::sum);
        }
        List<String> out = new ArrayList<>();
        counts.forEach((line, n) -> out.add(n + " × " + line));
        out.add("TokenReviews asked: " + (reviews.tokenReviews.get() - before));
        return out;
    }

    /** A scrape's status, body and {@code Retry-After} header. */
    record Answer(int status, String body, Optional<String> retryAfter) {

        /** The body's one line, as the doc shows it. */
        String line() {
            return body.strip();
        }

        /** The body with {@code extra} after its verdict, e.g. {@code throttled, Retry-After 1: ...}. */
        String verdictAndReason(Optional<String> extra) {
            String text = line().substring(line().indexOf(' ') + 1);
            int colon = text.indexOf(':');
            return text.substring(0, colon) + extra.orElse("") + text.substring(colon);
        }
    }

    private Answer scrape(String authorization) throws IOException {
        HttpsURLConnection c = (HttpsURLConnection) URI.create("https://127.0.0.1:" + endpoint.port() + "/metrics")
                .toURL()
                .openConnection();
        c.setSSLSocketFactory(tls);
        // The certificate is self-signed for this test; what is under test is the gate behind it.
        c.setHostnameVerifier((host, session) -> true);
        c.setConnectTimeout(10_000);
        c.setReadTimeout(10_000);
        if (authorization != null) {
            c.setRequestProperty("Authorization", authorization);
        }
        try {
            int status = c.getResponseCode();
            try (InputStream in =
                    status < HttpURLConnection.HTTP_BAD_REQUEST ? c.getInputStream() : c.getErrorStream()) {
                return new Answer(
                        status,
                        new String(in.readAllBytes(), StandardCharsets.UTF_8),
                        Optional.ofNullable(c.getHeaderField("Retry-After")));
            }
        } finally {
            c.disconnect();
        }
    }

    /** Only {@code reader} is a valid token, and it may get /metrics. */
    private static final class Reviews implements AccessReviews {

        final AtomicInteger tokenReviews = new AtomicInteger();

        @Override
        public Optional<Requester> authenticate(BearerToken token) {
            tokenReviews.incrementAndGet();
            return token.value().equals("reader")
                    ? Optional.of(new Requester("system:serviceaccount:monitoring:reader", "u1", List.of(), Map.of()))
                    : Optional.empty();
        }

        @Override
        public boolean allowed(Requester requester, NonResourceRequest request) {
            return requester.username().endsWith(":reader");
        }
    }

    private static final class TrustingManager implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    @Test
    void theDocIsUpToDate() {
        assertThat(BadInputDoc.check(KIND, cases(), "node-agent", getClass().getSimpleName()))
                .isNull();
    }
}
