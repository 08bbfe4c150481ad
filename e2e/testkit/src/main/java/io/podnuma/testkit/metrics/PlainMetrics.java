package io.podnuma.testkit.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A component's plain-HTTP {@code /metrics} on a port of this machine's loopback (a host-network pod's, a process's). */
public final class PlainMetrics {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private PlainMetrics() {}

    /** The exposition text; an IOException names the port when the answer is not 200. */
    public static String fetch(int port) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("/metrics on port " + port + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }
}
