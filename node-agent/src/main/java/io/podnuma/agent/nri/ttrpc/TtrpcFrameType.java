package io.podnuma.agent.nri.ttrpc;

import java.util.Optional;

/** The message types of a ttrpc frame header. */
public enum TtrpcFrameType {
    REQUEST(1),
    RESPONSE(2),
    /** Streaming data; NRI never streams. */
    DATA(3);

    private final int code;

    TtrpcFrameType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static Optional<TtrpcFrameType> of(int code) {
        for (TtrpcFrameType t : values()) {
            if (t.code == code) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
