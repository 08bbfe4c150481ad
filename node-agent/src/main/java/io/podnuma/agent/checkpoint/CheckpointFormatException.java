package io.podnuma.agent.checkpoint;

/** A checkpoint's bytes that cannot be used, with the typed reason. */
public final class CheckpointFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    private final RejectReason reason;

    public CheckpointFormatException(RejectReason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public RejectReason reason() {
        return reason;
    }
}
