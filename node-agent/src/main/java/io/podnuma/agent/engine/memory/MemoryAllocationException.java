package io.podnuma.agent.engine.memory;

/** The memory manager cannot place a request; the pod is rejected with {@link #reason()}. */
public final class MemoryAllocationException extends RuntimeException {

    /** The pod status reason the kubelet reports for memory manager failures. */
    public static final String UNEXPECTED_ADMISSION_ERROR = "UnexpectedAdmissionError";

    private static final long serialVersionUID = 1L;

    public MemoryAllocationException(String message) {
        super(message);
    }

    public String reason() {
        return UNEXPECTED_ADMISSION_ERROR;
    }
}
