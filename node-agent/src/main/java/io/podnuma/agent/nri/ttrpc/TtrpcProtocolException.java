package io.podnuma.agent.nri.ttrpc;

import java.io.IOException;

/** The peer sent something no ttrpc implementation produces; the connection cannot continue. */
public final class TtrpcProtocolException extends IOException {

    public TtrpcProtocolException(String message) {
        super(message);
    }
}
