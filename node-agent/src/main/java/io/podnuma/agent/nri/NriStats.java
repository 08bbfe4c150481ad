package io.podnuma.agent.nri;

import java.util.Map;

/**
 * A snapshot of the plugin's counters, for the agent to expose as metrics: answered requests by NRI method name
 * ({@code CreateContainer}, ...) and result, the duration of the last answered request, and the connections.
 * {@code reconnects} counts connections after the first one.
 */
public record NriStats(
        Map<String, Map<NriRequestResult, Long>> requests,
        long lastRequestNanos,
        long connects,
        long reconnects,
        long failedConnectAttempts) {

    public NriStats {
        requests = Map.copyOf(requests);
    }

    public long requests(String method, NriRequestResult result) {
        return requests.getOrDefault(method, Map.of()).getOrDefault(result, 0L);
    }
}
