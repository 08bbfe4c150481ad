package io.podnuma.agent.report;

/** The node's {@code NumaNodeState} could not be written; the message says which node and why. */
public class NodeStateWriteException extends RuntimeException {

    public NodeStateWriteException(String message, Throwable cause) {
        super(message, cause);
    }

    public NodeStateWriteException(String message) {
        super(message);
    }
}
