package io.podnuma.agent.engine.node;

/** Unwinds one admission; carries the upstream reason. Never leaves the package. */
final class RejectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final RejectionReason reason;

    RejectedException(RejectionReason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    RejectionReason reason() {
        return reason;
    }
}
