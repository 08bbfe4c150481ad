package io.podnuma.agent.nri.ttrpc;

import java.io.IOException;

/** Where encoded frames go: one call per frame, which must reach the peer whole and uninterleaved. */
@FunctionalInterface
public interface FrameSink {
    void send(byte[] frame) throws IOException;
}
