package io.podnuma.agent.pods;

/** A pod (or its budget annotation) that the engine cannot take; the message names the field and value. */
public final class PodMappingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public PodMappingException(String message) {
        super(message);
    }

    public PodMappingException(String message, Throwable cause) {
        super(message, cause);
    }
}
