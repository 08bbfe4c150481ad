package io.podnuma.oci;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes a POSIX ustar archive with reproducible headers: owner root:root (0:0), one fixed modification time, the
 * modes given. Names longer than 100 bytes are split into ustar's prefix and name fields at a '/'; a name that
 * cannot be split is refused rather than written in an extension some importers do not read.
 */
final class TarWriter implements AutoCloseable {
    private static final int BLOCK = 512;
    private static final byte TYPE_FILE = '0';
    private static final byte TYPE_SYMLINK = '2';
    private static final byte TYPE_DIRECTORY = '5';

    private final OutputStream out;
    private final long modificationSeconds;

    TarWriter(OutputStream out, long modificationSeconds) {
        this.out = out;
        this.modificationSeconds = modificationSeconds;
    }

    void directory(String name, FileMode mode) throws IOException {
        out.write(header(name + "/", mode, 0, TYPE_DIRECTORY, ""));
    }

    void symlink(String name, String target) throws IOException {
        out.write(header(name, new FileMode(0777), 0, TYPE_SYMLINK, target));
    }

    void file(String name, FileMode mode, long size, InputStream content) throws IOException {
        out.write(header(name, mode, size, TYPE_FILE, ""));
        long copied = content.transferTo(out);
        if (copied != size) {
            throw new IOException(name + ": expected " + size + " bytes, read " + copied + " (changed while packing?)");
        }
        pad(size);
    }

    void file(String name, FileMode mode, byte[] content) throws IOException {
        out.write(header(name, mode, content.length, TYPE_FILE, ""));
        out.write(content);
        pad(content.length);
    }

    /** Two zero blocks end the archive; the stream stays open for the caller. */
    @Override
    public void close() throws IOException {
        out.write(new byte[2 * BLOCK]);
        out.flush();
    }

    private void pad(long size) throws IOException {
        int rest = (int) (size % BLOCK);
        if (rest != 0) {
            out.write(new byte[BLOCK - rest]);
        }
    }

    private byte[] header(String name, FileMode mode, long size, byte type, String linkTarget) {
        byte[] h = new byte[BLOCK];
        byte[] full = name.getBytes(StandardCharsets.UTF_8);
        String prefix = "";
        String shortName = name;
        if (full.length > 100) {
            int split = splitPoint(name);
            prefix = name.substring(0, split);
            shortName = name.substring(split + 1);
        }
        put(h, 0, 100, shortName);
        octal(h, 100, 8, mode.bits());
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, modificationSeconds);
        h[156] = type;
        put(h, 157, 100, linkTarget);
        put(h, 257, 6, "ustar");
        put(h, 263, 2, "00");
        put(h, 265, 32, "root");
        put(h, 297, 32, "root");
        put(h, 345, 155, prefix);
        // The checksum is computed with its own field as eight spaces.
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        h[155] = ' ';
        return h;
    }

    private static int splitPoint(String name) {
        for (int i = name.length() - 1; i >= 0; i--) {
            if (name.charAt(i) == '/') {
                int prefixBytes = name.substring(0, i).getBytes(StandardCharsets.UTF_8).length;
                int nameBytes = name.substring(i + 1).getBytes(StandardCharsets.UTF_8).length;
                if (prefixBytes <= 155 && nameBytes <= 100 && nameBytes > 0) {
                    return i;
                }
            }
        }
        throw new IllegalArgumentException("path too long for a ustar header: " + name);
    }

    private static void put(byte[] header, int offset, int length, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > length) {
            throw new IllegalArgumentException("'" + value + "' does not fit a " + length + "-byte tar field");
        }
        System.arraycopy(bytes, 0, header, offset, bytes.length);
    }

    /** Octal digits, zero-padded, ending with NUL: the field's last byte. */
    private static void octal(byte[] header, int offset, int length, long value) {
        String digits = Long.toOctalString(value);
        if (digits.length() > length - 1) {
            throw new IllegalArgumentException(value + " does not fit a " + length + "-byte octal tar field");
        }
        put(header, offset, length - 1, "0".repeat(length - 1 - digits.length()) + digits);
        header[offset + length - 1] = 0;
    }
}
