package io.podnuma.agent.cgroup;

import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** The real cgroup files of the host. */
public final class HostCgroupFiles implements CgroupFiles {

    /** A cpuset list of a few hundred CPUs fits; longer contents grow it. */
    private static final int READ_BUFFER = 256;

    @Override
    public String read(Path file) throws IOException {
        // The reconcile tick reads two files of every container: a small buffer and plain reads to the end cost a
        // third less than Files.readString, which sizes its buffer from the file's reported size (4096 on cgroupfs).
        byte[] buf = new byte[READ_BUFFER];
        int n = 0;
        try (InputStream in = new FileInputStream(file.toFile())) {
            for (int r; (r = in.read(buf, n, buf.length - n)) >= 0; ) {
                n += r;
                if (n == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
        } catch (FileNotFoundException e) {
            // FileInputStream says neither which nor why in its type; the callers tell a missing file from the rest.
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new NoSuchFileException(file.toString());
            }
            throw e;
        }
        return new String(buf, 0, n, StandardCharsets.US_ASCII);
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
