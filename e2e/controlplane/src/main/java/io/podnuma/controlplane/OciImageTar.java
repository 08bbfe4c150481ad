package io.podnuma.controlplane;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes an OCI image layout tar of one uncompressed layer, the form {@code ctr images import} takes without a
 * registry or a Docker daemon: {@code oci-layout}, {@code index.json} (naming the image in the annotation
 * containerd reads), and the layer, config and manifest blobs. Output is byte-for-byte reproducible (mtime 0,
 * uid 0, entries in the given order).
 */
final class OciImageTar {

    static final String NAME_ANNOTATION = "io.containerd.image.name";

    private OciImageTar() {}

    /** One regular file of the layer: its path inside the image (no leading slash), its bytes and its mode. */
    record LayerFile(String path, byte[] content, int mode) {
        LayerFile {
            if (path.startsWith("/") || path.isEmpty()) {
                throw new IllegalArgumentException("layer paths are relative and non-empty, was '" + path + "'");
            }
        }
    }

    /** Writes the image {@code name} (e.g. {@code podnuma.io/pause:1}) running {@code entrypoint} to {@code out}. */
    static void write(Path out, String name, List<LayerFile> files, List<String> entrypoint) {
        Map<String, byte[]> layerEntries = new LinkedHashMap<>();
        Map<String, Integer> modes = new LinkedHashMap<>();
        for (LayerFile file : files) {
            layerEntries.put(file.path(), file.content());
            modes.put(file.path(), file.mode());
        }
        byte[] layer = tar(layerEntries, modes);
        String layerDigest = sha256(layer);
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Entrypoint\":"
                        + jsonArray(entrypoint) + ",\"Env\":[\"PATH=/\"]},\"rootfs\":{\"type\":\"layers\","
                        + "\"diff_ids\":[\"" + layerDigest + "\"]}}")
                .getBytes(StandardCharsets.UTF_8);
        String configDigest = sha256(config);
        byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                        + "\"config\":" + descriptor("application/vnd.oci.image.config.v1+json", configDigest, config)
                        + ",\"layers\":[" + descriptor("application/vnd.oci.image.layer.v1.tar", layerDigest, layer)
                        + "]}")
                .getBytes(StandardCharsets.UTF_8);
        String manifestDigest = sha256(manifest);
        String tag = name.substring(name.lastIndexOf(':') + 1);
        byte[] index = ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.index.v1+json\","
                        + "\"manifests\":[{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                        + "\"digest\":\"" + manifestDigest + "\",\"size\":" + manifest.length
                        + ",\"annotations\":{\"" + NAME_ANNOTATION + "\":\"" + name + "\","
                        + "\"org.opencontainers.image.ref.name\":\"" + tag + "\"}}]}")
                .getBytes(StandardCharsets.UTF_8);

        Map<String, byte[]> image = new LinkedHashMap<>();
        image.put("oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}".getBytes(StandardCharsets.UTF_8));
        image.put("index.json", index);
        image.put(blob(layerDigest), layer);
        image.put(blob(configDigest), config);
        image.put(blob(manifestDigest), manifest);
        Map<String, Integer> imageModes = new LinkedHashMap<>();
        image.keySet().forEach(path -> imageModes.put(path, 0644));
        try {
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.write(out, tar(image, imageModes));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    private static String blob(String digest) {
        return "blobs/sha256/" + digest.substring("sha256:".length());
    }

    private static String descriptor(String mediaType, String digest, byte[] content) {
        return "{\"mediaType\":\"" + mediaType + "\",\"digest\":\"" + digest + "\",\"size\":" + content.length + "}";
    }

    private static String jsonArray(List<String> values) {
        return values.stream()
                .map(v -> "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
                .collect(java.util.stream.Collectors.joining(",", "[", "]"));
    }

    static String sha256(byte[] content) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** A POSIX ustar archive of regular files (parent directories are implied, as OCI layers allow). */
    static byte[] tar(Map<String, byte[]> files, Map<String, Integer> modes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            byte[] content = file.getValue();
            out.writeBytes(header(file.getKey(), content.length, modes.get(file.getKey())));
            out.writeBytes(content);
            out.writeBytes(new byte[padding(content.length)]);
        }
        out.writeBytes(new byte[1024]); // two zero blocks end the archive
        return out.toByteArray();
    }

    private static int padding(int length) {
        return (512 - length % 512) % 512;
    }

    private static byte[] header(String name, long size, int mode) {
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        if (nameBytes.length > 100) {
            throw new IllegalArgumentException("tar entry name longer than 100 bytes: " + name);
        }
        byte[] header = new byte[512];
        System.arraycopy(nameBytes, 0, header, 0, nameBytes.length);
        octal(header, 100, 8, mode);
        octal(header, 108, 8, 0);
        octal(header, 116, 8, 0);
        octal(header, 124, 12, size);
        octal(header, 136, 12, 0);
        header[156] = '0';
        System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, header, 257, 6);
        header[263] = '0';
        header[264] = '0';
        // The checksum is computed with its own field read as spaces.
        java.util.Arrays.fill(header, 148, 156, (byte) ' ');
        long sum = 0;
        for (byte b : header) {
            sum += b & 0xff;
        }
        byte[] checksum = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(checksum, 0, header, 148, 8);
        return header;
    }

    private static void octal(byte[] header, int offset, int width, long value) {
        byte[] digits = String.format("%0" + (width - 1) + "o", value).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(digits, 0, header, offset, width - 1);
        header[offset + width - 1] = 0;
    }
}
