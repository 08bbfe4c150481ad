package io.podnuma.agent.nri.ttrpc;

import java.util.Objects;

/** One ttrpc frame. The stream id is unsigned on the wire, hence {@code long}. */
public record TtrpcFrame(long streamId, TtrpcFrameType type, int flags, byte[] payload) {

    public TtrpcFrame {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(payload, "payload");
        if (streamId < 0 || streamId > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("stream id " + streamId + " must fit in u32");
        }
        if (flags < 0 || flags > 0xFF) {
            throw new IllegalArgumentException("flags " + flags + " must fit in u8");
        }
        if (payload.length > TtrpcFrames.MAX_DATA) {
            throw new IllegalArgumentException(
                    "ttrpc data of " + payload.length + " bytes is over the " + TtrpcFrames.MAX_DATA + "-byte limit");
        }
    }
}
