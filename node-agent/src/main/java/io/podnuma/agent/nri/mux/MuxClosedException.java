package io.podnuma.agent.nri.mux;

import java.io.IOException;

/** A write to a trunk that is closed (or closed while writing); the message names why it closed. */
public final class MuxClosedException extends IOException {

    public MuxClosedException(String message) {
        super(message);
    }
}
