package io.podnuma.agent.nri.ttrpc;

/**
 * Serves one method: the request message's bytes to the response message's bytes. It runs on its own virtual
 * thread and is interrupted when the caller's deadline passes.
 */
@FunctionalInterface
public interface UnaryHandler {
    byte[] handle(byte[] request) throws Exception;
}
