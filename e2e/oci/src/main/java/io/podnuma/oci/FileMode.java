package io.podnuma.oci;

/** A Unix permission mode of a file in a layer, as the tar header stores it (octal digits, no type bits). */
public record FileMode(int bits) {
    /** rwxr-xr-x: executables, the dynamic loader, directories. */
    public static final FileMode EXECUTABLE = new FileMode(0755);
    /** rw-r--r--: data files, jars, shared libraries that are only mapped. */
    public static final FileMode REGULAR = new FileMode(0644);
    /** rwxrwxrwt: a world-writable scratch directory such as /tmp. */
    public static final FileMode STICKY_SCRATCH = new FileMode(01777);

    public FileMode {
        if (bits < 0 || bits > 07777) {
            throw new IllegalArgumentException("not a permission mode: " + Integer.toOctalString(bits));
        }
    }

    public boolean executableByOwner() {
        return (bits & 0100) != 0;
    }

    @Override
    public String toString() {
        return String.format("%04o", bits);
    }
}
