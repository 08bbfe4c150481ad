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
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The real cgroup files of the host. Writes are confined to the layout's hierarchies: the agent's mount of the host's
 * cgroups is read-write as a whole (see the operator's AgentRender), so this is what keeps its writes to the cpuset
 * and quota files of the trees it was given.
 */
public final class HostCgroupFiles implements CgroupFiles {

    /** A cpuset list of a few hundred CPUs fits; longer contents grow it. */
    private static final int READ_BUFFER = 256;

    private final CgroupLayout layout;

    /** @param layout the hierarchies the agent may write in ({@link CgroupLayout#rootOf}) */
    public HostCgroupFiles(CgroupLayout layout) {
        this.layout = Objects.requireNonNull(layout, "layout");
    }

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
    public void write(CgroupWrite write) throws IOException {
        Path file = confined(write);
        // No CREATE: a missing cgroup file means a missing cgroup or controller, never something to make up.
        // A lone newline is how an empty list is written (a zero-byte write would change nothing).
        String value = write.value();
        byte[] bytes = (value.isEmpty() ? "\n" : value).getBytes(StandardCharsets.US_ASCII);
        try (OutputStream out = Files.newOutputStream(
                file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)) {
            out.write(bytes);
        }
    }

    /**
     * The write's file with every link resolved, when that is a file of the write's name inside its hierarchy.
     * The resolved path is the one written, so a link the check saw cannot send the write elsewhere afterwards.
     *
     * @throws NoSuchFileException when the file does not exist (no cgroup, or no such controller there)
     * @throws CgroupWriteRefusedException when it lies elsewhere or is another file
     */
    private Path confined(CgroupWrite write) throws IOException {
        Path file = write.path();
        Path real = file.toRealPath(); // NoSuchFileException for a missing one, as the write itself would throw
        Path root = layout.rootOf(write.file());
        String name = write.file().fileName();
        if (!inside(real, root) || !real.getFileName().toString().equals(name)) {
            throw new CgroupWriteRefusedException(
                    file,
                    "refusing to write \"" + write.value() + "\" to " + file
                            + (real.equals(file) ? "" : " (" + real + " once links are resolved)")
                            + ": the agent writes "
                            + name + " only to a file of that name inside the cgroup hierarchy " + root);
        }
        return real;
    }

    private static boolean inside(Path real, Path root) throws IOException {
        try {
            return real.startsWith(root.toRealPath());
        } catch (NoSuchFileException e) {
            return false; // nothing lies inside a hierarchy that is not there
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
