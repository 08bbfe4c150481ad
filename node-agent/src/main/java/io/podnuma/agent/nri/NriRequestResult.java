package io.podnuma.agent.nri;

import io.podnuma.agent.nri.ttrpc.StatusCode;

/** How a request from the runtime ended, for metrics. */
public enum NriRequestResult {
    OK,
    /** The handler failed (or the request was malformed). */
    ERROR,
    /** The method is not one we serve; the runtime falls back (StateChange) or never asks again. */
    UNIMPLEMENTED,
    /** The handler overran the runtime's deadline: the runtime closes the connection. */
    TIMEOUT;

    static NriRequestResult of(StatusCode code) {
        return switch (code) {
            case OK -> OK;
            case UNIMPLEMENTED -> UNIMPLEMENTED;
            case DEADLINE_EXCEEDED -> TIMEOUT;
            default -> ERROR;
        };
    }
}
