package io.podnuma.agent.runtime.core;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.cgroup.CgroupWriteException;
import java.util.Optional;

/** The host side of pinning: reads and writes one container cgroup's cpuset. */
public interface PinWriter {

    /**
     * Makes the container's cpuset exactly {@code pin}, in the order the kernel requires.
     *
     * @return whether anything was written (false: it was already so)
     */
    boolean apply(CgroupPath container, Pin pin) throws CgroupWriteException;

    /** The container's cpuset now; empty when its cgroup is gone. */
    Optional<Pin> read(CgroupPath container) throws CgroupWriteException;

    /** {@link #read}, with a failure logged and taken as "gone" (the next scan finds the cgroup again). */
    default Optional<Pin> readQuietly(CgroupPath container) {
        try {
            return read(container);
        } catch (CgroupWriteException e) {
            org.slf4j.LoggerFactory.getLogger(PinWriter.class).warn("{}", e.getMessage());
            return Optional.empty();
        }
    }

    /** Turns off the CFS quota of a container with exclusive CPUs (idempotent). */
    void removeQuota(CgroupPath container) throws CgroupWriteException;
}
