package io.podnuma.agent.nri.mux;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trunk: one reader thread demultiplexes frames into the per-conn streams of {@link #input}, and {@link #send}
 * writes one message under a lock, cut as a Go peer cuts it ({@link GoWriteSplit}). Anything the peer does that a Go
 * mux would not accept from us (a frame for conn 0 or an unknown conn, a payload above {@link MuxHeader#MAX_PAYLOAD},
 * more than {@link #QUEUE_FRAMES} frames waiting on one conn) closes the trunk with one log line; there is no way to
 * resynchronise a byte stream. {@link #closed()} completes once with the reason.
 *
 * <p>A failed write does not end the streams at once: a peer that answered and then hung up (NRI's Shutdown) has its
 * last frames in our receive buffer, and a write of ours that meets the hang-up first must not throw them away. Sends
 * fail from then on, the reader reads on to the peer's end of stream, and only then does the trunk close, with the
 * write's failure as the reason ({@link #DRAIN_LIMIT} at most, for a peer that stopped reading but not writing).
 */
public final class Mux implements AutoCloseable {

    /** Frames a conn may hold unread, as upstream's reader queue; more closes the trunk. */
    public static final int QUEUE_FRAMES = 256;

    /** How long the reader may go on draining after a write failed before the trunk is closed anyway. */
    public static final Duration DRAIN_LIMIT = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(Mux.class);

    private final ByteChannel trunk;
    private final String name;
    private final Map<MuxChannel, ConnInputStream> inputs = new EnumMap<>(MuxChannel.class);
    private final ReentrantLock writeLock = new ReentrantLock();
    private final CompletableFuture<String> closed = new CompletableFuture<>();
    /** Why writing stopped (a failed write), while the reader drains; null while writes work. */
    private volatile String writeFailure;

    /** A mux over a connected trunk; {@code name} labels its thread and log lines. Call {@link #start}. */
    public Mux(ByteChannel trunk, String name) {
        this.trunk = Objects.requireNonNull(trunk, "trunk");
        this.name = Objects.requireNonNull(name, "name");
        for (MuxChannel c : MuxChannel.values()) {
            inputs.put(c, new ConnInputStream(QUEUE_FRAMES));
        }
    }

    /** Starts the reader thread. */
    public Mux start() {
        Thread.ofVirtual().name(name + "-mux-reader").start(this::readLoop);
        return this;
    }

    /** The byte stream of one conn; it ends when the trunk closes. */
    public InputStream input(MuxChannel channel) {
        return inputs.get(channel);
    }

    /** Completes with the reason once the trunk is closed, by either side or by a protocol error. */
    public CompletableFuture<String> closed() {
        return closed;
    }

    public boolean isClosed() {
        return closed.isDone();
    }

    /** Writes one whole message (a ttrpc frame) on a conn; concurrent senders never interleave frames. */
    public void send(MuxChannel channel, byte[] message) throws IOException {
        writeLock.lock();
        try {
            if (isClosed()) {
                throw new MuxClosedException("mux " + name + " is closed: " + closed.getNow(""));
            }
            if (writeFailure != null) {
                throw new MuxClosedException("mux " + name + " is closing: " + writeFailure);
            }
            int offset = 0;
            for (int size : GoWriteSplit.frameSizes(message.length)) {
                ByteBuffer header = ByteBuffer.wrap(new MuxHeader(channel.id(), size).bytes());
                ByteBuffer payload = ByteBuffer.wrap(message, offset, size);
                writeFully(header);
                writeFully(payload);
                offset += size;
            }
        } catch (MuxClosedException e) {
            throw e;
        } catch (IOException e) {
            drainThenClose("write to the trunk failed: " + e);
            throw new MuxClosedException("mux " + name + ": write failed: " + e.getMessage());
        } finally {
            writeLock.unlock();
        }
    }

    /** Closes the trunk; the first reason given is the one {@link #closed()} reports. */
    public void close(String reason) {
        if (!closed.complete(reason)) {
            return;
        }
        try {
            trunk.close();
        } catch (IOException e) {
            LOG.debug("mux {}: closing the trunk: {}", name, e.toString());
        }
        inputs.values().forEach(ConnInputStream::end);
    }

    @Override
    public void close() {
        close("closed locally");
    }

    /** Called under the write lock: no more sends; the reader's end of stream (or the drain limit) closes. */
    private void drainThenClose(String reason) {
        if (writeFailure != null) {
            return;
        }
        writeFailure = reason;
        CompletableFuture.delayedExecutor(DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                .execute(() -> close(reason));
    }

    /** The reason the peer's end of stream closes with: the failed write that came first, if one did. */
    private String peerEnded() {
        String failure = writeFailure;
        return failure != null ? failure : "the peer closed the connection";
    }

    private void readLoop() {
        try {
            while (true) {
                byte[] headerBytes = new byte[MuxHeader.BYTES];
                if (!readFully(headerBytes, true)) {
                    close(peerEnded());
                    return;
                }
                MuxHeader header = MuxHeader.decode(headerBytes);
                var channel = MuxChannel.of(header.connId());
                if (channel.isEmpty()) {
                    refuse(
                            header.connId() == 0
                                    ? "frame for the reserved conn 0"
                                    : "frame for unknown conn " + header.connId() + " (NRI uses 1 and 2)");
                    return;
                }
                if (header.length() > MuxHeader.MAX_PAYLOAD) {
                    refuse("frame of " + header.length() + " bytes on conn " + header.connId() + " is over the "
                            + MuxHeader.MAX_PAYLOAD + "-byte limit");
                    return;
                }
                byte[] payload = new byte[(int) header.length()];
                if (!readFully(payload, false)) {
                    close(peerEnded());
                    return;
                }
                if (payload.length > 0 && !inputs.get(channel.get()).offer(payload)) {
                    refuse(QUEUE_FRAMES + " frames on conn " + header.connId() + " wait unread");
                    return;
                }
            }
        } catch (ClosedChannelException e) {
            close("closed locally");
        } catch (IOException e) {
            close(writeFailure != null ? writeFailure : "reading the trunk failed: " + e);
        } catch (RuntimeException e) {
            LOG.error("mux {}: reader failed", name, e);
            close("mux reader failed: " + e);
        }
    }

    private void refuse(String problem) {
        if (!isClosed()) {
            LOG.warn("mux {}: refusing the connection: {}", name, problem);
        }
        close("protocol error: " + problem);
    }

    private void writeFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            trunk.write(buffer);
        }
    }

    /** False on end of stream before the first byte when {@code eofAllowed}; EOF inside a frame throws. */
    private boolean readFully(byte[] into, boolean eofAllowed) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(into);
        while (buffer.hasRemaining()) {
            if (trunk.read(buffer) < 0) {
                if (buffer.position() == 0 && eofAllowed) {
                    return false;
                }
                throw new EOFException("the peer closed the connection inside a frame");
            }
        }
        return true;
    }
}
