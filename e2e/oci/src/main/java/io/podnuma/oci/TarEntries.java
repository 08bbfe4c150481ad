package io.podnuma.oci;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A ustar reader to check what was packed (the tests of this module and of the image builds), written from the
 * format, independent of {@link TarWriter}'s code: a writer bug is not read back as its own mirror image.
 */
public record TarEntries(Map<String, TarEntries.Entry> byName) {
    public record Entry(
            String name, char type, int mode, int uid, int gid, long mtime, String linkTarget, byte[] content) {
        public String text() {
            return new String(content, StandardCharsets.UTF_8);
        }
    }

    public static TarEntries read(Path tar) throws IOException {
        return read(Files.readAllBytes(tar));
    }

    public static TarEntries read(byte[] tar) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        int at = 0;
        while (at + 512 <= tar.length) {
            byte[] h = java.util.Arrays.copyOfRange(tar, at, at + 512);
            if (allZero(h)) {
                break;
            }
            long sum = 0;
            for (int i = 0; i < 512; i++) {
                sum += (i >= 148 && i < 156) ? ' ' : h[i] & 0xff;
            }
            if (sum != octal(h, 148, 8)) {
                throw new IllegalStateException("bad checksum at offset " + at);
            }
            if (!field(h, 257, 6).equals("ustar")) {
                throw new IllegalStateException("not ustar at offset " + at);
            }
            String prefix = field(h, 345, 155);
            String name = (prefix.isEmpty() ? "" : prefix + "/") + field(h, 0, 100);
            long size = octal(h, 124, 12);
            byte[] content = java.util.Arrays.copyOfRange(tar, at + 512, at + 512 + (int) size);
            Entry e = new Entry(
                    name,
                    (char) h[156],
                    (int) octal(h, 100, 8),
                    (int) octal(h, 108, 8),
                    (int) octal(h, 116, 8),
                    octal(h, 136, 12),
                    field(h, 157, 100),
                    content);
            if (entries.put(name, e) != null) {
                throw new IllegalStateException("duplicate entry " + name);
            }
            at += 512 + (int) ((size + 511) / 512 * 512);
        }
        return new TarEntries(entries);
    }

    public static TarEntries read(InputStream in) throws IOException {
        return read(in.readAllBytes());
    }

    public Entry get(String name) {
        Entry e = byName.get(name);
        if (e == null) {
            throw new AssertionError("no entry " + name + " in " + byName.keySet());
        }
        return e;
    }

    public List<String> names() {
        return new ArrayList<>(byName.keySet());
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static String field(byte[] h, int offset, int length) {
        int end = offset;
        while (end < offset + length && h[end] != 0) {
            end++;
        }
        return new String(h, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] h, int offset, int length) {
        String s = field(h, offset, length).trim();
        return s.isEmpty() ? 0 : Long.parseLong(s, 8);
    }
}
