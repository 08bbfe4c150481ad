package io.podnuma.agent.nri.mux;

import java.nio.ByteBuffer;

/**
 * One mux frame header: {@code [conn id u32 BE][payload length u32 BE]}. Both values are unsigned on the wire, so
 * they are held as {@code long} and a garbage header decodes to the number it spells (for the log line).
 */
public record MuxHeader(long connId, long length) {

    public static final int BYTES = 8;

    /** The largest payload a Go peer puts in one frame: a ttrpc header plus the 4 MiB ttrpc limit. */
    public static final int MAX_PAYLOAD = 10 + (4 << 20);

    public MuxHeader {
        if (connId < 0 || connId > 0xFFFF_FFFFL || length < 0 || length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("conn id " + connId + " and length " + length + " must fit in u32");
        }
    }

    public byte[] bytes() {
        return ByteBuffer.allocate(BYTES)
                .putInt((int) connId)
                .putInt((int) length)
                .array();
    }

    public static MuxHeader decode(byte[] header) {
        if (header.length != BYTES) {
            throw new IllegalArgumentException("a mux header is " + BYTES + " bytes, not " + header.length);
        }
        ByteBuffer b = ByteBuffer.wrap(header);
        return new MuxHeader(Integer.toUnsignedLong(b.getInt()), Integer.toUnsignedLong(b.getInt()));
    }
}
