package io.podnuma.agent.engine.pod;

/** Where a container sits in the pod, which decides its lifetime and what it may share. */
public enum ContainerType {
    /** A standard init container: runs to completion before the next one starts. */
    INIT,
    /** A restartable init container ({@code restartPolicy: Always}): runs for the pod's whole life. */
    SIDECAR,
    /** A regular container. */
    APP,
    /** An ephemeral (debug) container: never partitioned, runs on the node shared pool. */
    EPHEMERAL;

    /** Whether the container runs alongside the app containers (so it needs CPUs for the pod's life). */
    public boolean longRunning() {
        return this == SIDECAR || this == APP;
    }

    /** The name used in reports and the checkpoint. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static ContainerType parse(String value) {
        for (ContainerType t : values()) {
            if (t.wireName().equals(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException(
                "container type \"" + value + "\" is unknown: allowed init, sidecar, app, ephemeral");
    }
}
