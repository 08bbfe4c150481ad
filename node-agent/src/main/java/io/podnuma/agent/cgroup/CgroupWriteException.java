package io.podnuma.agent.cgroup;

import java.nio.file.Path;

/**
 * A cgroup change that was refused or failed. The message names the file, the value and the
 * kernel's error text or the rule that forbids the change.
 */
public final class CgroupWriteException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Path path;

    public CgroupWriteException(Path path, String message) {
        super(message);
        this.path = path;
    }

    public CgroupWriteException(Path path, String message, Throwable cause) {
        super(message, cause);
        this.path = path;
    }

    /** The cgroup file or directory at fault. */
    public Path path() {
        return path;
    }
}
