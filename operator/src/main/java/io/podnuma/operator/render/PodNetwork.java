package io.podnuma.operator.render;

/**
 * Which network the agent pod uses. {@code HOST} (the default) serves metrics on the node's address and needs no pod
 * network or kube-proxy to reach the API server; {@code POD} keeps the agent off the host's ports.
 */
public enum PodNetwork {
    HOST,
    POD
}
