package io.podnuma.agent.cgroup;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A diagnostic seam for fault tests: cgroup writes fail as the kernel fails them while a control file names an
 * errno. Off unless {@code PODNUMA_DIAG_CGROUP_WRITE_FAULT} names the control file (never set by the chart); the file
 * holds {@code EBUSY}, {@code ENOSPC} or {@code EACCES}, and an absent or empty file lets writes through. Reads are
 * never failed: the faults are the ones a write to {@code cpuset.cpus} can meet. {@code SLOW} lets each write through
 * {@link #SLOW_WRITE} late (a cgroup write under a busy kernel lock), so that a soak can stop the agent in the middle
 * of a sequence of writes (its restore at departure).
 */
public final class FaultInjectingCgroupFiles implements CgroupFiles {

    /** The environment variable that turns the seam on. */
    public static final String ENV = "PODNUMA_DIAG_CGROUP_WRITE_FAULT";

    /** The control file's word for slow writes. */
    public static final String SLOW = "SLOW";

    /** How late a write goes through while the control file says {@value #SLOW}. */
    public static final Duration SLOW_WRITE = Duration.ofMillis(25);

    /** The errors a cpuset write can meet, with the kernel's text. */
    public enum Errno {
        EBUSY("Device or resource busy"),
        ENOSPC("No space left on device"),
        EACCES("Permission denied");

        private final String text;

        Errno(String text) {
            this.text = text;
        }

        IOException on(Path file) {
            return this == EACCES
                    ? new AccessDeniedException(file.toString(), null, text)
                    : new FileSystemException(file.toString(), null, text);
        }
    }

    private final CgroupFiles delegate;
    private final Path control;

    FaultInjectingCgroupFiles(CgroupFiles delegate, Path control) {
        this.delegate = delegate;
        this.control = control;
    }

    /** {@code files} itself unless the environment turns the seam on. */
    public static CgroupFiles fromEnvironment(Map<String, String> env, CgroupFiles files) {
        String path = env.get(ENV);
        return path == null || path.isBlank() ? files : new FaultInjectingCgroupFiles(files, Path.of(path));
    }

    /** The errno the control file names now, if any. */
    Optional<Errno> current() throws IOException {
        String text = controlText();
        if (text.isEmpty() || text.equalsIgnoreCase(SLOW)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Errno.valueOf(text.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw new IOException(control + " names " + text + ": allowed EBUSY, ENOSPC, EACCES, SLOW or nothing", e);
        }
    }

    private String controlText() throws IOException {
        try {
            return Files.readString(control, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    @Override
    public String read(Path file) throws IOException {
        return delegate.read(file);
    }

    @Override
    public void write(CgroupWrite write) throws IOException {
        Optional<Errno> fault = current();
        if (fault.isPresent()) {
            throw fault.get().on(write.path());
        }
        if (controlText().equalsIgnoreCase(SLOW)) {
            try {
                Thread.sleep(SLOW_WRITE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted in a slowed cgroup write of " + write.path());
            }
        }
        delegate.write(write);
    }

    @Override
    public List<Path> childDirectories(Path dir) throws IOException {
        return delegate.childDirectories(dir);
    }

    @Override
    public boolean isDirectory(Path dir) {
        return delegate.isDirectory(dir);
    }
}
