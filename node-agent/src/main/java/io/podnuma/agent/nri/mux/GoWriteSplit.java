package io.podnuma.agent.nri.mux;

import java.util.ArrayList;
import java.util.List;

/**
 * How a Go peer cuts one ttrpc message into mux frames, and so how we must cut ours. Go's ttrpc writes through a
 * 4096-byte {@code bufio.Writer}: a message that fits is one frame; a larger one fills the buffer (first frame
 * exactly 4096 bytes, the ttrpc header included) and the rest goes out in one write, which the mux splits only above
 * {@link MuxHeader#MAX_PAYLOAD}. The receiving Go mux hands out one whole frame per {@code Read} and fails when the
 * reader's buffer is smaller, and Go's ttrpc reads through a 4096-byte {@code bufio.Reader}: this shape is the one it
 * is known to accept.
 */
public final class GoWriteSplit {

    /** The size of Go's {@code bufio} buffers that ttrpc uses on each side. */
    public static final int FIRST_FRAME = 4096;

    private GoWriteSplit() {}

    /** The payload lengths of the mux frames for one message of {@code messageLength} bytes, in order. */
    public static List<Integer> frameSizes(int messageLength) {
        if (messageLength <= 0) {
            throw new IllegalArgumentException("a message has at least one byte, not " + messageLength);
        }
        List<Integer> sizes = new ArrayList<>();
        if (messageLength <= FIRST_FRAME) {
            sizes.add(messageLength);
            return sizes;
        }
        sizes.add(FIRST_FRAME);
        int rest = messageLength - FIRST_FRAME;
        while (rest > 0) {
            int size = Math.min(rest, MuxHeader.MAX_PAYLOAD);
            sizes.add(size);
            rest -= size;
        }
        return sizes;
    }
}
