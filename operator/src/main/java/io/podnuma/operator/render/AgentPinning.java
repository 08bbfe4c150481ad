package io.podnuma.operator.render;

import java.util.Locale;

/**
 * How the agents pin containers (the agent's {@code pinning} setting). Unless it is {@link #CGROUP}, the agent pod
 * mounts the directory of the runtime's NRI socket.
 */
public enum AgentPinning {
    /** As an NRI plugin while the runtime's NRI socket answers, else by writing cgroups. */
    AUTO,
    /** As an NRI plugin: containers are born pinned; an absent socket is a warning. */
    NRI,
    /** By writing each container's cgroup after its creation; no NRI socket is mounted. */
    CGROUP;

    /** The value in the agent's file and in the operator's settings: {@code auto}, {@code nri}, {@code cgroup}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the agent may talk NRI, so its pod needs the socket's directory. */
    public boolean usesNri() {
        return this != CGROUP;
    }
}
