package io.podnuma.oci;

import java.nio.file.Path;

/** One entry of an image layer: a directory, a file whose bytes come from the build host, or a symbolic link. */
public sealed interface LayerEntry
        permits LayerEntry.Directory, LayerEntry.HostFile, LayerEntry.Text, LayerEntry.Symlink {
    LayerPath path();

    FileMode mode();

    record Directory(LayerPath path, FileMode mode) implements LayerEntry {}

    /** A file copied from {@code source} (its content, symbolic links followed) with the mode given, not the host's. */
    record HostFile(LayerPath path, Path source, FileMode mode) implements LayerEntry {}

    /** A small file written by the build itself, e.g. {@code /etc/passwd}. */
    record Text(LayerPath path, String content, FileMode mode) implements LayerEntry {}

    record Symlink(LayerPath path, String target) implements LayerEntry {
        @Override
        public FileMode mode() {
            return new FileMode(0777);
        }
    }
}
