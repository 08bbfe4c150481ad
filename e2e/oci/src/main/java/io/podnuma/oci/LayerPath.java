package io.podnuma.oci;

import java.util.Optional;

/**
 * A path inside an image's root filesystem, relative and normalised ("opt/podnuma/bin/java"): the form tar entries
 * of a layer use. Built from an absolute path as the container sees it.
 */
public record LayerPath(String relative) implements Comparable<LayerPath> {
    public LayerPath {
        if (relative.isEmpty()
                || relative.startsWith("/")
                || relative.endsWith("/")
                || relative.contains("//")
                || ("/" + relative + "/").contains("/../")
                || ("/" + relative + "/").contains("/./")) {
            throw new IllegalArgumentException("not a normalised relative layer path: '" + relative + "'");
        }
    }

    /** The path of a file as a process in the container names it, e.g. {@code /opt/podnuma/bin/java}. */
    public static LayerPath of(String absolute) {
        if (!absolute.startsWith("/")) {
            throw new IllegalArgumentException("a container path starts with '/': " + absolute);
        }
        return new LayerPath(absolute.substring(1));
    }

    public String absolute() {
        return "/" + relative;
    }

    public Optional<LayerPath> parent() {
        int slash = relative.lastIndexOf('/');
        return slash < 0 ? Optional.empty() : Optional.of(new LayerPath(relative.substring(0, slash)));
    }

    public LayerPath resolve(String child) {
        return new LayerPath(relative + "/" + child);
    }

    /** Sorted so that a directory comes before everything in it. */
    @Override
    public int compareTo(LayerPath other) {
        return relative.compareTo(other.relative);
    }

    @Override
    public String toString() {
        return absolute();
    }
}
