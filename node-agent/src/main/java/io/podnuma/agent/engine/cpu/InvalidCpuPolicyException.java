package io.podnuma.agent.engine.cpu;

/** A CPU manager configuration that cannot work on this machine or is self-contradictory. */
public final class InvalidCpuPolicyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidCpuPolicyException(String message) {
        super(message);
    }
}
