package io.podnuma.operator.plan;

/** Why the operator records an Event on a policy; each reason has one type, so a warning cannot be sent as normal. */
public enum EventReason {
    /** Nodes were labelled for the policy. */
    NODES_ASSIGNED("NodesAssigned", EventType.NORMAL),
    /** Nodes the policy selects are governed by another policy (newly, or a different set). */
    NODE_CONFLICT("NodeConflict", EventType.WARNING),
    /** Governed nodes started failing. */
    NODE_DEGRADED("NodeDegraded", EventType.WARNING),
    /** Governed nodes that failed no longer do. */
    NODE_RECOVERED("NodeRecovered", EventType.NORMAL),
    /** A new agent DaemonSet template was applied. */
    ROLLOUT_STARTED("RolloutStarted", EventType.NORMAL),
    /** The DaemonSet's rollout completed. */
    ROLLOUT_COMPLETE("RolloutComplete", EventType.NORMAL),
    /** The policy's labels were removed from its nodes on deletion. */
    NODES_RELEASED("NodesReleased", EventType.NORMAL),
    /** Deletion gave up waiting for agents to restore their nodes. */
    RESTORE_TIMED_OUT("RestoreTimedOut", EventType.WARNING);

    private final String wire;
    private final EventType type;

    EventReason(String wire, EventType type) {
        this.wire = wire;
        this.type = type;
    }

    /** The reason as the Event spells it (CamelCase). */
    public String wire() {
        return wire;
    }

    public EventType type() {
        return type;
    }
}
