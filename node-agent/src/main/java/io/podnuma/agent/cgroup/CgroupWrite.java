package io.podnuma.agent.cgroup;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One write to a cgroup file, in the order it was (or is to be) made. Only the files and values of {@link
 * WritableCgroupFile} can be written: a value the file does not admit is refused here, before anything reaches the
 * host.
 *
 * @param cgroup the cgroup directory
 * @param file which of the agent's files in it
 * @param value what is written
 * @throws IllegalArgumentException when {@code file} does not admit {@code value}
 */
public record CgroupWrite(Path cgroup, WritableCgroupFile file, String value) {

    public CgroupWrite {
        Objects.requireNonNull(cgroup, "cgroup");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(value, "value");
        file.check(cgroup.resolve(file.fileName()), value);
    }

    /** The file's path. */
    public Path path() {
        return cgroup.resolve(file.fileName());
    }

    @Override
    public String toString() {
        return path() + " <- \"" + value + "\"";
    }
}
