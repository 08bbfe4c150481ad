package io.podnuma.agent.nri.mux;

import java.util.Optional;

/** The two logical connections NRI opens on the trunk; conn id 0 is reserved and every other id is unknown. */
public enum MuxChannel {
    /** The plugin's ttrpc server, the runtime's client. */
    PLUGIN_SERVICE(1),
    /** The runtime's ttrpc server, the plugin's client. */
    RUNTIME_SERVICE(2);

    private final int id;

    MuxChannel(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /** The channel for a conn id read off the wire (an unsigned 32-bit value), if it is one NRI uses. */
    public static Optional<MuxChannel> of(long connId) {
        for (MuxChannel c : values()) {
            if (c.id == connId) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
