package io.podnuma.podresources;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** Checks a unix domain socket path before binding or dialling, so failures name the path and the fix. */
final class DomainSocketPaths {

    /** Linux {@code sun_path} holds 108 bytes including the terminating NUL. */
    static final int MAX_PATH_BYTES = 107;

    private DomainSocketPaths() {}

    static Path checkLength(Path socket) {
        int bytes = socket.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_PATH_BYTES) {
            throw new IllegalArgumentException("unix socket path " + socket + " is " + bytes
                    + " bytes long; Linux allows at most " + MAX_PATH_BYTES + ": choose a shorter path");
        }
        return socket;
    }

    /**
     * Makes the path free for a new listener. A socket file left by an earlier run is removed (nothing
     * can listen on it any more once its owner is gone); anything else at the path is a configuration
     * mistake and is left alone.
     */
    static void prepareForBind(Path socket) throws IOException {
        checkLength(socket);
        Path parent = socket.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new IOException("cannot listen on unix socket " + socket + ": directory " + parent
                    + " does not exist; create it first");
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (java.nio.file.NoSuchFileException absent) {
            return;
        }
        if (!attributes.isOther()) {
            throw new IOException("cannot listen on unix socket " + socket
                    + ": a regular file, directory or link is in the way; remove it or choose another path");
        }
        Files.delete(socket);
    }
}
