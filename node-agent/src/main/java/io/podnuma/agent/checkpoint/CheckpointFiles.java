package io.podnuma.agent.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The changes a {@link CheckpointStore} makes to the state directory, one method per step of its atomic replace (and
 * of moving an unusable file aside or deleting one). {@link #HOST} makes them on the file system; the agent uses
 * nothing else. The seam exists so a test can stop a write at an exact step (a crash before or after the rename:
 * every call of the dead incarnation throws from then on, so nothing cleans up behind it) or fail it as a full or
 * read-only directory would.
 */
public interface CheckpointFiles {

    /** The file system itself. */
    CheckpointFiles HOST = new HostCheckpointFiles();

    /** Creates {@code dir} if needed and an empty temp file in it, readable by its owner only. */
    Path createTemp(Path dir, String prefix) throws IOException;

    /** Writes {@code bytes} into {@code temp} (in the page cache: {@link #sync} makes them durable). */
    void write(Path temp, byte[] bytes) throws IOException;

    /** fsyncs {@code file} so its content survives a power loss. */
    void sync(Path file) throws IOException;

    /** Renames {@code temp} over {@code target} atomically. */
    void replace(Path temp, Path target) throws IOException;

    /** Renames {@code file} to {@code target}, failing when {@code target} exists. */
    void moveAside(Path file, Path target) throws IOException;

    /** Deletes {@code file}; no file is not an error. */
    void delete(Path file) throws IOException;

    /** fsyncs {@code dir} so the renames and deletions in it survive a power loss. */
    void syncDirectory(Path dir) throws IOException;
}
