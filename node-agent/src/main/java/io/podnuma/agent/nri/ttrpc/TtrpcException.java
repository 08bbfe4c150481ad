package io.podnuma.agent.nri.ttrpc;

import java.util.Objects;

/**
 * A call that ended with a non-OK status: the peer's status on the client side; thrown by a handler, the status
 * the server answers with (any other exception answers {@link StatusCode#UNKNOWN}).
 */
public final class TtrpcException extends Exception {

    private final StatusCode code;

    public TtrpcException(StatusCode code, String message) {
        super(code + ": " + message);
        this.code = Objects.requireNonNull(code, "code");
        if (code == StatusCode.OK) {
            throw new IllegalArgumentException("OK is not an error: " + message);
        }
    }

    public StatusCode code() {
        return code;
    }

    /** The message without the code prefix, as sent in {@code Status.message}. */
    public String statusMessage() {
        String m = getMessage();
        return m.substring(code.name().length() + 2);
    }
}
