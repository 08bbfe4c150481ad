/**
 * The NRI multiplexer: one unix socket (the trunk) carries two byte streams, as frames with an 8-byte big-endian
 * header {@code [conn id u32][payload length u32]}. Conn 1 carries the plugin service (the runtime calls us), conn 2
 * the runtime service (we call the runtime). There is no open or close signalling; either side closing the trunk
 * ends both streams. Facts from {@code containerd/nri pkg/net/multiplex} v0.12.3.
 */
package io.podnuma.agent.nri.mux;
