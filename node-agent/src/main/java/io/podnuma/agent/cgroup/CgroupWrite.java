package io.podnuma.agent.cgroup;

import java.nio.file.Path;

/** One write to a cgroup file, in the order it was (or is to be) made. */
public record CgroupWrite(Path file, String value) {

    @Override
    public String toString() {
        return file + " <- \"" + value + "\"";
    }
}
