package io.podnuma.agent.engine.cpu;

/**
 * A CPU request that cannot be met. {@link #reason()} is the upstream admission reason a pod is
 * rejected with.
 */
public class CpuAllocationException extends Exception {

    private static final long serialVersionUID = 1L;

    /** The kubelet's reason for an allocation failure that is not an alignment error. */
    public static final String UNEXPECTED_ADMISSION_ERROR = "UnexpectedAdmissionError";

    private final String reason;

    public CpuAllocationException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
