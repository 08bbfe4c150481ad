package io.podnuma.agent.podresources;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.event.Level;

/**
 * The directory the PodResources socket is served from, made as tight as the socket before the socket is bound: only
 * its owner (root) writes there, so nobody else can replace the socket, and nobody the socket keeps out can reach it
 * in the instant between bind and chmod.
 *
 * <p>The agent makes the directory when it is missing, and sets the mode of one that exists when it is the agent's
 * own: it belongs to the user the agent runs as and holds nothing but the socket (or a stale socket of the same name).
 * That is the directory the operator mounts for the socket alone, which the kubelet's DirectoryOrCreate makes 0755.
 * Any other directory is left as it is: a socket configured into {@code /run} or beside the kubelet's own must not
 * take the mode of a directory other programs depend on, and a directory of another user is not the agent's to
 * change (nor could it without CAP_FOWNER).
 */
public final class SocketDirectory {

    /** What the start does with the directory. */
    public enum Action {
        /** Missing: made with the mode. */
        MAKE,
        /** The agent's own with another mode: the mode is set. */
        TIGHTEN,
        /** The agent's own with the mode already. */
        KEEP,
        /** Not the agent's own: left as it is. */
        LEAVE
    }

    /**
     * The directory as the start finds it.
     *
     * @param ownerUid the directory's owner
     * @param agentUid the user the agent runs as
     * @param entries the names in the directory
     */
    public record Found(int ownerUid, int agentUid, Set<PosixFilePermission> mode, List<String> entries) {
        public Found {
            mode = Set.copyOf(mode);
            entries = List.copyOf(entries);
        }
    }

    /**
     * What to do, and the line the agent logs about it.
     *
     * @param level how the line is logged: a warning for a directory left writable by others than its owner (anyone
     *     who may write there could replace the socket with one of their own), debug when nothing changed
     */
    public record Decision(Action action, String note, Level level) {
        public Decision {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(note, "note");
            Objects.requireNonNull(level, "level");
        }
    }

    private SocketDirectory() {}

    /**
     * Decides for {@code dir}, found as {@code found} (empty: missing), serving {@code socketName} with the directory
     * mode {@code wanted}.
     */
    public static Decision decide(Path dir, Optional<Found> found, String socketName, Set<PosixFilePermission> wanted) {
        String want = PosixFilePermissions.toString(wanted);
        String what = "PodResources socket directory " + dir;
        if (found.isEmpty()) {
            return new Decision(Action.MAKE, what + " made " + want, Level.INFO);
        }
        Found f = found.get();
        String have = PosixFilePermissions.toString(f.mode());
        Optional<String> other =
                f.entries().stream().filter(e -> !e.equals(socketName)).sorted().findFirst();
        String notOwn = null;
        if (f.ownerUid() != f.agentUid()) {
            notOwn = "it belongs to uid " + f.ownerUid() + ", not to uid " + f.agentUid() + " the agent runs as";
        } else if (other.isPresent()) {
            notOwn = "it holds other files than " + socketName + " (" + other.get() + ")";
        }
        if (notOwn != null) {
            boolean openToWrite = f.mode().contains(PosixFilePermission.GROUP_WRITE)
                    || f.mode().contains(PosixFilePermission.OTHERS_WRITE);
            return new Decision(
                    Action.LEAVE,
                    what + " left " + have + ": " + notOwn + ", so it is not the agent's own to change; give the socket"
                            + " a directory of its own to have it made " + want,
                    openToWrite ? Level.WARN : Level.INFO);
        }
        if (f.mode().equals(Set.copyOf(wanted))) {
            return new Decision(Action.KEEP, what + " is " + want, Level.DEBUG);
        }
        return new Decision(
                Action.TIGHTEN,
                what + " was " + have + ", now " + want + ": the agent's own (uid " + f.agentUid()
                        + ", nothing in it but " + socketName + ")",
                Level.INFO);
    }

    /**
     * Looks at {@code dir}, decides and does it: {@link Action#MAKE} and {@link Action#TIGHTEN} change the directory
     * before the socket exists (each one system call, so a second start finds {@link Action#KEEP}).
     */
    public static Decision prepare(Path dir, String socketName, Set<PosixFilePermission> wanted) throws IOException {
        Decision d = decide(dir, find(dir), socketName, wanted);
        switch (d.action()) {
            // The mode given at creation is cut by the umask; a tighter one never loosens it, and the agent asks for
            // nothing the default umask takes away (0700, 0750).
            case MAKE -> Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(wanted));
            case TIGHTEN -> Files.setPosixFilePermissions(dir, wanted);
            case KEEP, LEAVE -> {}
        }
        return d;
    }

    private static Optional<Found> find(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        List<String> entries;
        try (Stream<Path> s = Files.list(dir)) {
            entries = s.map(p -> p.getFileName().toString()).toList();
        }
        return Optional.of(new Found(
                (Integer) Files.getAttribute(dir, "unix:uid"),
                agentUid(),
                Files.getPosixFilePermissions(dir),
                entries));
    }

    /** The effective uid of this process: {@code /proc/self} belongs to it. */
    private static int agentUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }
}
