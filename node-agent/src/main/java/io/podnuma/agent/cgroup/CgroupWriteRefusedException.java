package io.podnuma.agent.cgroup;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A write the agent refuses to make on the host because it would land outside the cgroup hierarchy it was given
 * (a path through {@code ..}, a symbolic link or another root), or on a file other than the one it names. Nothing is
 * written; the message names the path and what is allowed.
 */
public final class CgroupWriteRefusedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path path;

    CgroupWriteRefusedException(Path path, String message) {
        super(message);
        this.path = path;
    }

    /** The path that was to be written. */
    public Path path() {
        return path;
    }
}
