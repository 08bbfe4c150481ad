package io.podnuma.agent.runtime.leave;

/** How the agent stops. */
public enum Shutdown {
    /** A rolling update or a restart: the pins stay for the next agent, and so does the checkpoint. */
    KEEP_PINS,
    /**
     * The node has left podnuma: every container gets every CPU and memory node back and the checkpoint is
     * deleted.
     */
    RESTORE
}
