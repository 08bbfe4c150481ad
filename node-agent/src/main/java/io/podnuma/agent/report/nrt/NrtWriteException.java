package io.podnuma.agent.report.nrt;

/** The node's {@code NodeResourceTopology} could not be written; the message says which node and why. */
public class NrtWriteException extends RuntimeException {

    public NrtWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
