package io.podnuma.agent.cgroup;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/** The real cgroup files of the host. */
public final class HostCgroupFiles implements CgroupFiles {

    @Override
    public String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII);
    }

    @Override
    public void write(Path file, String value) throws IOException {
        // No CREATE: a missing cgroup file means a missing cgroup or controller, never something to make up.
        // A lone newline is how an empty list is written (a zero-byte write would change nothing).
        byte[] bytes = (value.isEmpty() ? "\n" : value).getBytes(StandardCharsets.US_ASCII);
        try (OutputStream out =
                Files.newOutputStream(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(bytes);
        }
    }

    @Override
    public List<Path> childDirectories(Path dir) throws IOException {
        // A directory's link count is 2 plus its sub-directories on kernfs (cgroupfs) and the usual file systems,
        // so 2 means none: one stat instead of listing some 30 control files and a stat for each. File systems
        // that do not count (they report 1) are listed.
        if (Files.getAttribute(dir, "unix:nlink") instanceof Integer links && links == 2) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> Files.isDirectory(p)).toList();
        }
    }

    @Override
    public boolean isDirectory(Path dir) {
        return Files.isDirectory(dir);
    }
}
