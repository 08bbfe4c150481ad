package io.podnuma.agent.nri.ttrpc;

/** The gRPC status codes ttrpc carries in {@code Response.status.code}. */
public enum StatusCode {
    OK(0),
    CANCELLED(1),
    UNKNOWN(2),
    INVALID_ARGUMENT(3),
    DEADLINE_EXCEEDED(4),
    NOT_FOUND(5),
    ALREADY_EXISTS(6),
    PERMISSION_DENIED(7),
    RESOURCE_EXHAUSTED(8),
    FAILED_PRECONDITION(9),
    ABORTED(10),
    OUT_OF_RANGE(11),
    UNIMPLEMENTED(12),
    INTERNAL(13),
    UNAVAILABLE(14),
    DATA_LOSS(15),
    UNAUTHENTICATED(16);

    private final int code;

    StatusCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The code for a number off the wire; a number gRPC does not define reads as {@link #UNKNOWN}. */
    public static StatusCode of(int code) {
        for (StatusCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return UNKNOWN;
    }
}
