package io.podnuma.agent.sysfs;

import java.nio.file.Path;

/** A sysfs tree that cannot be read or does not describe a consistent machine. */
public final class SysfsException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Path path;

    public SysfsException(Path path, String problem) {
        super(path + ": " + problem);
        this.path = path;
    }

    public SysfsException(Path path, String problem, Throwable cause) {
        super(path + ": " + problem, cause);
        this.path = path;
    }

    /** Describes bad file content: what was read and what was expected. */
    static SysfsException badContent(Path path, String content, String expected) {
        return new SysfsException(path, "unexpected content \"" + abbreviate(content) + "\"; expected " + expected);
    }

    private static String abbreviate(String s) {
        String t = s.strip().replace("\n", "\\n");
        return t.length() > 120 ? t.substring(0, 117) + "..." : t;
    }

    /** The file or directory at fault. */
    public Path path() {
        return path;
    }
}
