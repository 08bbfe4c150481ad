package io.podnuma.operator.render;

/**
 * The API server as the agent dials it when the cluster's {@code kubernetes} Service is not reachable from the node
 * (no kube-proxy, as on the local test cluster): it sets the two variables the in-cluster client reads.
 */
public record ApiServerEndpoint(String host, int port) {

    public ApiServerEndpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("API server host must not be empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("API server port " + port + ": allowed 1..65535");
        }
    }
}
