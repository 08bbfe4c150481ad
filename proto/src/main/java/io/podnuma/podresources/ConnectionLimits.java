package io.podnuma.podresources;

import java.time.Duration;
import java.util.Objects;

/**
 * How many connections a {@link DomainSocketServer} holds at once and how long it keeps one that does nothing. Every
 * process allowed to open the socket could otherwise hold connections (a file descriptor and buffers each) for as
 * long as it likes.
 *
 * @param maxConnections connections held at once; one more is closed as soon as it is accepted, before any byte is
 *     read, so a flood cannot queue work behind the cap
 * @param handshakeTimeout how long a new connection may take to send its HTTP/2 preface and settings; a connection
 *     that sends nothing (or no HTTP/2) is closed after it
 * @param maxIdle how long an HTTP/2 connection may go without a call before the server says goodbye (GOAWAY); a gRPC
 *     client reconnects on its next call, so only a client that holds a connection and never calls loses it
 */
public record ConnectionLimits(int maxConnections, Duration handshakeTimeout, Duration maxIdle) {

    static final int MAX_CONNECTIONS = 65_536;

    /**
     * 64 connections: a node's PodResources clients (a few monitoring agents, each with one channel) use a handful.
     * 10 s to speak: a local client writes its preface right after connecting. A minute idle: clients that poll
     * every few seconds keep their connection, one that stopped polling frees its place.
     */
    public static final ConnectionLimits DEFAULT =
            new ConnectionLimits(64, Duration.ofSeconds(10), Duration.ofMinutes(1));

    public ConnectionLimits {
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        Objects.requireNonNull(maxIdle, "maxIdle");
        if (maxConnections < 1 || maxConnections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("PodResources socket connection cap " + maxConnections
                    + ": allowed 1 to " + MAX_CONNECTIONS + ", e.g. 64");
        }
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("PodResources socket handshake timeout " + handshakeTimeout
                    + ": allowed a positive duration, e.g. 10s");
        }
        if (maxIdle.isNegative() || maxIdle.isZero()) {
            throw new IllegalArgumentException(
                    "PodResources socket idle timeout " + maxIdle + ": allowed a positive duration, e.g. 1m");
        }
    }
}
