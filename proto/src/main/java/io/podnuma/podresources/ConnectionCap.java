package io.podnuma.podresources;

import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sits in the listening channel's pipeline in front of Netty's acceptor, which hands each accepted connection on as a
 * message: beyond {@code max} open connections the new one is closed there, before gRPC sets it up. grpc-java has no
 * connection cap of its own and no hook into its child channels, so this is the one place a connection can be
 * counted before it costs anything.
 */
final class ConnectionCap extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionCap.class);

    /** At most one warning a minute: a flood would otherwise write one line per refused connection. */
    private static final long WARN_EVERY_NANOS = 60_000_000_000L;

    private final int max;
    private final String socket;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong refusedSinceWarning = new AtomicLong();
    private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);

    ConnectionCap(int max, String socket) {
        this.max = max;
        this.socket = socket;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Channel child)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            // Not registered with an event loop yet, so no events to fire: closing the descriptor is all there is.
            child.unsafe().closeForcibly();
            warn();
            return;
        }
        child.closeFuture().addListener(f -> open.decrementAndGet());
        ctx.fireChannelRead(child);
    }

    private void warn() {
        long refused = refusedSinceWarning.incrementAndGet();
        long now = System.nanoTime();
        long last = lastWarning.get();
        if (now - last >= WARN_EVERY_NANOS && lastWarning.compareAndSet(last, now)) {
            refusedSinceWarning.addAndGet(-refused);
            LOG.warn(
                    "PodResources socket {}: {} connections are open, the most it holds; closed {} more since the"
                            + " last warning. Connections that send nothing are closed after the handshake timeout,"
                            + " idle ones after the idle timeout; a client that keeps opening connections without"
                            + " using them is the one to look for (ss -xp)",
                    socket,
                    max,
                    refused);
        }
    }
}
