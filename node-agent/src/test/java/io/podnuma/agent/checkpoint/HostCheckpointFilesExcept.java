package io.podnuma.agent.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/** The file system's {@link CheckpointFiles}, for a test fake to override the one step it changes. */
public abstract class HostCheckpointFilesExcept implements CheckpointFiles {

    @Override
    public Path createTemp(Path dir, String prefix) throws IOException {
        return HOST.createTemp(dir, prefix);
    }

    @Override
    public void write(Path temp, byte[] bytes) throws IOException {
        HOST.write(temp, bytes);
    }

    @Override
    public void sync(Path file) throws IOException {
        HOST.sync(file);
    }

    @Override
    public void replace(Path temp, Path target) throws IOException {
        HOST.replace(temp, target);
    }

    @Override
    public void moveAside(Path file, Path target) throws IOException {
        HOST.moveAside(file, target);
    }

    @Override
    public void delete(Path file) throws IOException {
        HOST.delete(file);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        HOST.syncDirectory(dir);
    }
}
