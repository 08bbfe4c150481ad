package io.podnuma.agent.cgroup;

import static io.podnuma.agent.cgroup.InvalidCgroupNameException.quote;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A cgroup directory relative to a hierarchy root, as a list of directory names. The same relative
 * path names the cgroup in every v1 hierarchy (cpuset, cpu) and in the v2 unified one.
 *
 * @param segments directory names, outermost first; none empty, {@code .}, {@code ..} or containing {@code /}
 */
public record CgroupPath(List<String> segments) {

    public CgroupPath {
        segments = List.copyOf(segments);
        for (String s : segments) {
            if (s.isEmpty()
                    || s.equals(".")
                    || s.equals("..")
                    || s.indexOf('/') >= 0
                    || s.indexOf('\0') >= 0
                    || hasUnpairedSurrogate(s)) {
                throw new InvalidCgroupNameException("cgroup path segment " + quote(s) + " in " + segments
                        + " is not a directory name: empty, \".\", \"..\", \"/\", NUL and unpaired UTF-16"
                        + " surrogates are not allowed");
            }
        }
    }

    /** Half of a surrogate pair encodes to no file name: {@link #in} would fail with InvalidPathException. */
    private static boolean hasUnpairedSurrogate(String s) {
        // A plain loop: every path built (e.g. each entry of a rescan) checks every segment, so no stream here.
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++; // a pair
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** The hierarchy root itself. */
    public static CgroupPath root() {
        return new CgroupPath(List.of());
    }

    /**
     * Parses {@code a/b/c}; leading, trailing and repeated slashes are ignored.
     *
     * @throws InvalidCgroupNameException for a {@code .} or {@code ..} segment
     */
    public static CgroupPath parse(String text) {
        if (text == null) {
            throw new InvalidCgroupNameException("cgroup path is null: expected a path such as kubepods/pod<uid>/<id>");
        }
        List<String> parts = new ArrayList<>();
        for (String s : text.split("/", -1)) {
            if (!s.isEmpty()) {
                parts.add(s);
            }
        }
        return new CgroupPath(parts);
    }

    /**
     * The path of {@code dir} below {@code hierarchyRoot}, e.g. a directory reported by a watch.
     *
     * @throws InvalidCgroupNameException when {@code dir} is not below the root
     */
    public static CgroupPath relativize(Path hierarchyRoot, Path dir) {
        Path root = hierarchyRoot.toAbsolutePath().normalize();
        Path d = dir.toAbsolutePath().normalize();
        if (!d.startsWith(root)) {
            throw new InvalidCgroupNameException(
                    "directory " + quote(d.toString()) + " is not below the cgroup hierarchy " + root);
        }
        List<String> parts = new ArrayList<>();
        for (Path p : root.relativize(d)) {
            if (!p.toString().isEmpty()) {
                parts.add(p.toString());
            }
        }
        return new CgroupPath(parts);
    }

    public CgroupPath child(String name) {
        List<String> s = new ArrayList<>(segments);
        s.add(name);
        return new CgroupPath(s);
    }

    public boolean isRoot() {
        return segments.isEmpty();
    }

    public CgroupPath parent() {
        if (segments.isEmpty()) {
            throw new IllegalStateException("the hierarchy root has no parent");
        }
        return new CgroupPath(segments.subList(0, segments.size() - 1));
    }

    /** This path's directory in a hierarchy mounted at {@code hierarchyRoot}. */
    public Path in(Path hierarchyRoot) {
        Path p = hierarchyRoot;
        for (String s : segments) {
            p = p.resolve(s);
        }
        return p;
    }

    @Override
    public String toString() {
        return "/" + String.join("/", segments);
    }
}
