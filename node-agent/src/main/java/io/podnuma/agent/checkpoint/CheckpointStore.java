package io.podnuma.agent.checkpoint;

import io.podnuma.agent.engine.state.NodeState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint file in the agent's state directory. One agent process is its only writer.
 *
 * <p>A write replaces the whole file or nothing: the bytes go to a temp file in the same directory
 * ({@code <name>.tmp-<random>}), which is renamed over the file atomically; then the file and the directory are
 * fsynced so the write survives a power loss ({@link #makeDurable}, which the agent runs off the thread that pins,
 * since an fsync may wait hundreds of milliseconds behind other writers of the disk). A crash of the process at any
 * point leaves the previous checkpoint or the new one and at most a temp file, which the next {@link #read} deletes.
 *
 * <p>A file that cannot be used is never deleted: it is renamed to {@code <name>.corrupt-<UTC timestamp>} for
 * inspection and the read says why, so the agent can emit an Event and rebuild the state from the live pods.
 */
public final class CheckpointStore {

    public static final String DEFAULT_FILE_NAME = "node-state.json";

    /** Far above any real checkpoint (110 pods are ~100 KiB); a bigger file is not read into memory. */
    static final long MAX_BYTES = 64L * 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** Test seam: runs between the write of the temp file and the rename, where a crash is most interesting. */
    interface BeforeRename {
        void run(Path temp) throws IOException;
    }

    private final Path dir;
    private final String fileName;
    private final Clock clock;
    private final BeforeRename beforeRename;
    private final CheckpointFiles files;

    public CheckpointStore(Path dir) {
        this(dir, CheckpointFiles.HOST);
    }

    /** A store whose every change to {@code dir} goes through {@code files} (tests: crashes, a full directory). */
    public CheckpointStore(Path dir, CheckpointFiles files) {
        this(dir, DEFAULT_FILE_NAME, Clock.systemUTC(), temp -> {}, files);
    }

    CheckpointStore(Path dir, String fileName, Clock clock, BeforeRename beforeRename) {
        this(dir, fileName, clock, beforeRename, CheckpointFiles.HOST);
    }

    private CheckpointStore(Path dir, String fileName, Clock clock, BeforeRename beforeRename, CheckpointFiles files) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.files = Objects.requireNonNull(files, "files");
        if (fileName.isEmpty() || fileName.contains("/")) {
            throw new IllegalArgumentException("checkpoint file name \"" + fileName + "\" must be a plain file name");
        }
        this.fileName = fileName;
        this.clock = clock;
        this.beforeRename = beforeRename;
    }

    public Path file() {
        return dir.resolve(fileName);
    }

    /**
     * Replaces the checkpoint with {@code checkpoint}, durably: {@link #replace} then {@link #makeDurable}.
     *
     * @throws UncheckedIOException when the directory cannot be written; the previous checkpoint is then intact
     */
    public void write(Checkpoint checkpoint) {
        replace(checkpoint);
        makeDurable();
    }

    /**
     * Replaces the checkpoint with {@code checkpoint} in one rename: from then on every reader (an agent that
     * restarts after a crash of this one) reads it. It survives a power loss once {@link #makeDurable} returns; a
     * power loss before that leaves the previous checkpoint, this one, or a file the next {@link #read} sets aside
     * (its checksum fails) where the file system does not order the data before the rename. A power loss also ends
     * every container and its cpuset, so no pin on the host can be older than the checkpoint then.
     *
     * @throws UncheckedIOException when the directory cannot be written; the previous checkpoint is then intact
     */
    public void replace(Checkpoint checkpoint) {
        byte[] bytes = CheckpointCodec.encode(checkpoint);
        Path temp = null;
        try {
            temp = files.createTemp(dir, fileName + ".tmp-");
            files.write(temp, bytes);
            beforeRename.run(temp);
            files.replace(temp, file());
            temp = null;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot write the checkpoint " + file() + ": " + e.getMessage()
                            + " (the previous checkpoint, if any, is unchanged)",
                    e);
        } finally {
            if (temp != null) {
                try {
                    files.delete(temp);
                } catch (IOException e) {
                    LOG.warn("cannot delete the unfinished checkpoint {}: {}", temp, e.getMessage());
                }
            }
        }
    }

    /**
     * fsyncs the checkpoint file and its directory: what {@link #replace} put there survives a power loss. A file
     * gone meanwhile (the node left podnuma) leaves the directory to sync.
     *
     * @throws UncheckedIOException when the file system reports an error
     */
    public void makeDurable() {
        try {
            try {
                files.sync(file());
            } catch (NoSuchFileException e) {
                // deleted since: its deletion is what the directory's sync makes durable
            }
            syncDirectory();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot make the checkpoint " + file() + " durable (fsync): " + e.getMessage(), e);
        }
    }

    /** {@link #read(TopologyFingerprint, String, UnaryOperator)} without a state check. */
    public CheckpointRead read(TopologyFingerprint topology, String configHash) {
        return read(topology, configHash, UnaryOperator.identity());
    }

    /**
     * Reads the checkpoint at start, after deleting temp files left by a crash mid-write (so call it before the
     * first {@link #write}, never beside one).
     *
     * @param topology the machine as discovered now
     * @param configHash the policy in force now (only compared: a change is reported, not rejected)
     * @param check checks the state against the machine and config, e.g. {@code NodeAllocator::validate};
     *     throws {@link IllegalArgumentException} with the reason when it does not fit
     * @throws UncheckedIOException when an unusable file cannot even be moved aside (it would be read again on
     *     every start): the message names the file to remove by hand
     */
    public CheckpointRead read(TopologyFingerprint topology, String configHash, UnaryOperator<NodeState> check) {
        deleteLeftoverTempFiles();
        byte[] bytes;
        try {
            long size = Files.size(file());
            if (size > MAX_BYTES) {
                return reject(
                        RejectReason.UNREADABLE,
                        "the file has " + size + " bytes, more than the " + MAX_BYTES + " a checkpoint may have");
            }
            bytes = Files.readAllBytes(file());
        } catch (NoSuchFileException e) {
            return new CheckpointRead.Missing();
        } catch (IOException e) {
            return reject(RejectReason.UNREADABLE, "cannot read: " + e);
        }
        Checkpoint checkpoint;
        try {
            checkpoint = CheckpointCodec.decode(bytes, topology);
        } catch (CheckpointFormatException e) {
            return reject(e.reason(), e.getMessage());
        }
        try {
            NodeState checked = check.apply(checkpoint.state());
            checkpoint = new Checkpoint(checked, checkpoint.topology(), checkpoint.configHash());
        } catch (IllegalArgumentException e) {
            return reject(RejectReason.INCONSISTENT_STATE, "the state does not fit this node: " + e.getMessage());
        }
        return new CheckpointRead.Loaded(checkpoint, !checkpoint.configHash().equals(configHash));
    }

    /** Removes the checkpoint (the node left podnuma); no file is not an error. */
    public void delete() {
        try {
            files.delete(file());
            if (Files.isDirectory(dir)) {
                syncDirectory();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the checkpoint " + file() + ": " + e.getMessage(), e);
        }
    }

    /** Deletes {@code <name>.tmp-*} files: only an interrupted {@link #write} leaves them. */
    public void deleteLeftoverTempFiles() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> s =
                Files.newDirectoryStream(dir, p -> p.getFileName().toString().startsWith(fileName + ".tmp-"))) {
            for (Path p : s) {
                LOG.info("deleting {}, left by a checkpoint write that did not finish", p);
                files.delete(p);
            }
        } catch (IOException e) {
            LOG.warn("cannot clean leftover checkpoint temp files in {}: {}", dir, e.getMessage());
        }
    }

    private CheckpointRead reject(RejectReason reason, String message) {
        String full = "checkpoint " + file() + ": " + message;
        Path aside = moveAside();
        LOG.warn("{}; moved to {}, the state will be rebuilt from the running pods", full, aside);
        return new CheckpointRead.Rejected(reason, full, aside);
    }

    private Path moveAside() {
        String base = fileName + ".corrupt-" + STAMP.format(clock.instant());
        for (int n = 0; ; n++) {
            Path target = dir.resolve(n == 0 ? base : base + "-" + n);
            if (Files.exists(target)) {
                continue;
            }
            try {
                files.moveAside(file(), target);
                syncDirectory();
                return target;
            } catch (FileAlreadyExistsException e) {
                continue;
            } catch (IOException e) {
                // A file that cannot even be renamed would be rejected again on every start; say so loudly.
                throw new UncheckedIOException(
                        "cannot move the unusable checkpoint " + file() + " aside to " + target + ": " + e.getMessage()
                                + "; remove it by hand",
                        e);
            }
        }
    }

    private void syncDirectory() throws IOException {
        files.syncDirectory(dir);
    }
}
