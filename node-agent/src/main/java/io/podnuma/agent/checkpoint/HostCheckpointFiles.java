package io.podnuma.agent.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** {@link CheckpointFiles} on the file system. */
final class HostCheckpointFiles implements CheckpointFiles {

    @Override
    public Path createTemp(Path dir, String prefix) throws IOException {
        Files.createDirectories(dir);
        // createTempFile makes the file 0600 on POSIX systems: the checkpoint describes every pod on the node.
        return Files.createTempFile(dir, prefix, "");
    }

    @Override
    public void write(Path temp, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        }
    }

    @Override
    public void sync(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    @Override
    public void replace(Path temp, Path target) throws IOException {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void moveAside(Path file, Path target) throws IOException {
        // No ATOMIC_MOVE: on Linux it would replace an existing target; this way a name clash throws.
        Files.move(file, target);
    }

    @Override
    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
