package io.podnuma.podresources;

/** Where a {@link DomainSocketServer} runs its services' handlers. */
public enum HandlerThreads {
    /**
     * On the transport's event loop, where the call arrived (gRPC's direct executor): no hand-off to another
     * thread and back per call. Only for handlers that never block (a lookup); a blocked handler stalls every
     * call on the socket.
     */
    EVENT_LOOP,
    /** On gRPC's default executor (a cached thread pool): for handlers that may wait, e.g. on another process. */
    EXECUTOR
}
