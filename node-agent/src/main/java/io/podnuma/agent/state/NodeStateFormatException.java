package io.podnuma.agent.state;

/** A node state file that cannot be read: unknown version, bad JSON, or a field with a bad value. */
public final class NodeStateFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public NodeStateFormatException(String message) {
        super(message);
    }
}
