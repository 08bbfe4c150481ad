package io.podnuma.agent.nri.ttrpc;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;

/** The ttrpc frame codec: one frame to its bytes, and the next frame off a byte stream. */
public final class TtrpcFrames {

    public static final int HEADER_BYTES = 10;

    /** The ttrpc data limit, 4 MiB; Go refuses to send or accept more. */
    public static final int MAX_DATA = 4 << 20;

    private TtrpcFrames() {}

    /** Header and data in one array, so the mux writes the frame as one message. */
    public static byte[] encode(TtrpcFrame frame) {
        return ByteBuffer.allocate(HEADER_BYTES + frame.payload().length)
                .putInt(frame.payload().length)
                .putInt((int) frame.streamId())
                .put((byte) frame.type().code())
                .put((byte) frame.flags())
                .put(frame.payload())
                .array();
    }

    /**
     * The next frame, or empty at a clean end of stream (between frames). A length over {@link #MAX_DATA} or an
     * unknown type throws {@link TtrpcProtocolException} before any data is read; end of stream inside a frame
     * throws {@link EOFException}.
     */
    public static Optional<TtrpcFrame> read(InputStream in) throws IOException {
        byte[] header = new byte[HEADER_BYTES];
        int first = in.readNBytes(header, 0, HEADER_BYTES);
        if (first == 0) {
            return Optional.empty();
        }
        if (first < HEADER_BYTES) {
            throw new EOFException("the stream ended inside a ttrpc header (" + first + " of 10 bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(header);
        long length = Integer.toUnsignedLong(b.getInt());
        long streamId = Integer.toUnsignedLong(b.getInt());
        int typeCode = b.get() & 0xFF;
        int flags = b.get() & 0xFF;
        if (length > MAX_DATA) {
            throw new TtrpcProtocolException("ttrpc frame of " + length + " bytes on stream " + streamId
                    + " is over the " + MAX_DATA + "-byte limit");
        }
        TtrpcFrameType type = TtrpcFrameType.of(typeCode)
                .orElseThrow(() -> new TtrpcProtocolException(
                        String.format("ttrpc frame of unknown type 0x%02x on stream %d", typeCode, streamId)));
        byte[] data = in.readNBytes((int) length);
        if (data.length < length) {
            throw new EOFException(
                    "the stream ended inside a ttrpc frame (" + data.length + " of " + length + " data bytes)");
        }
        return Optional.of(new TtrpcFrame(streamId, type, flags, data));
    }
}
