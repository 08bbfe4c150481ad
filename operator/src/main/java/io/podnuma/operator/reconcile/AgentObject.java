package io.podnuma.operator.reconcile;

/** The objects that run one policy's agents. */
public enum AgentObject {
    CONFIG_MAP,
    SERVICE,
    DAEMON_SET,
    SERVICE_MONITOR
}
