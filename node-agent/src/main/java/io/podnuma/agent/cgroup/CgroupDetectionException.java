package io.podnuma.agent.cgroup;

/** The host's cgroups could not be recognised; the message says what was found and what to set. */
public final class CgroupDetectionException extends Exception {

    private static final long serialVersionUID = 1L;

    public CgroupDetectionException(String message) {
        super(message);
    }
}
