package io.podnuma.agent.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The few file operations the cgroup writers need. Kept this narrow so tests can put a recording or
 * failing implementation in place of the host's files.
 */
public interface CgroupFiles {

    /** The whole content of a cgroup file; {@link java.nio.file.NoSuchFileException} when it does not exist. */
    String read(Path file) throws IOException;

    /**
     * Makes {@code write} to an existing cgroup file in one write, as the kernel parses one write at a time. The
     * exception's message carries the kernel's error text (e.g. "Device or resource busy"), or the reason the write
     * was refused ({@link CgroupWriteRefusedException}). Only a {@link CgroupWrite} is accepted, so only the files of
     * {@link WritableCgroupFile} can be written.
     */
    void write(CgroupWrite write) throws IOException;

    /** The sub-directories (child cgroups) of {@code dir}, in no particular order. */
    List<Path> childDirectories(Path dir) throws IOException;

    /** Whether {@code dir} exists as a directory. */
    boolean isDirectory(Path dir);
}
