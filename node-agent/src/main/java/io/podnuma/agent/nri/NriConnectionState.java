package io.podnuma.agent.nri;

/**
 * Where the plugin is in its life. The order of a good connection is CONNECTING → REGISTERING → CONFIGURED →
 * SYNCED; any failure or close goes to BACKING_OFF and then CONNECTING again; {@link NriPlugin#close} ends in CLOSED.
 */
public enum NriConnectionState {
    /** Opening the socket. */
    CONNECTING,
    /** Connected; RegisterPlugin sent, Configure not yet answered. */
    REGISTERING,
    /** Configure answered; the runtime's state (Synchronize) not yet delivered. */
    CONFIGURED,
    /** The state was delivered to the handler and events flow: the runtime consults us for every container. */
    SYNCED,
    /** Waiting before the next attempt (the socket was absent, refused, or closed). */
    BACKING_OFF,
    /** Closed by the agent; no more attempts. */
    CLOSED
}
