package io.podnuma.demo.journey;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** An agent's {@code /metrics} on a port of this machine, and the lines of it the demo shows. */
final class AgentMetrics {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private AgentMetrics() {}

    static String fetch(int port) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("the agent's /metrics on port " + port + " answered " + r.statusCode());
        }
        return r.body();
    }

    /** What the demo shows of it: the exclusive CPUs, refusals, pin latency, NRI and the agent's conditions. */
    static List<String> excerpt(String metrics) {
        return metrics.lines()
                .filter(l -> l.startsWith("podnuma_cpu_manager_exclusive_cpu_allocation_count")
                        || l.startsWith("podnuma_topology_manager_admission_errors_total")
                        || l.startsWith("podnuma_pin_latency_seconds_count")
                        // Born pinned: the agent is containerd's NRI plugin and answered each CreateContainer.
                        || l.startsWith("podnuma_nri_connected")
                        || l.startsWith("podnuma_nri_requests_total{method=\"CreateContainer\"")
                        || (l.startsWith("podnuma_agent_condition{") && l.endsWith(" 1.0")))
                .toList();
    }
}
