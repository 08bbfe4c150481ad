package io.podnuma.oci;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes an {@link ImageSpec} as an OCI image layout tar of one uncompressed layer, the form
 * {@code ctr -n k8s.io images import FILE.tar} reads without a registry or daemon: {@code oci-layout}, the blobs
 * (layer, config, manifest) under {@code blobs/sha256/}, and {@code index.json} naming the image with the
 * {@code io.containerd.image.name} annotation. Every timestamp is {@link #EPOCH}, so the same inputs give the same
 * digests.
 */
public final class OciLayoutWriter {
    /** The containerd importer names the image from this annotation of the index entry. */
    public static final String CONTAINERD_NAME = "io.containerd.image.name";

    public static final String OCI_REF_NAME = "org.opencontainers.image.ref.name";

    /** Seconds since 1970 of every entry and of the config's {@code created}: reproducible layers. */
    public static final long EPOCH = 0;

    public OciArchive write(ImageSpec image, Path archive) throws IOException {
        Path layerFile = Files.createTempFile(archive.toAbsolutePath().getParent(), "layer-", ".tar");
        try {
            Blob layer = writeLayer(image.entries(), layerFile);
            byte[] config = json(config(image, layer));
            Blob configBlob = new Blob(Blob.CONFIG, Digest.of(config), config.length);
            byte[] manifest = json(manifest(configBlob, layer));
            Blob manifestBlob = new Blob(Blob.MANIFEST, Digest.of(manifest), manifest.length);
            byte[] index = json(index(image.name(), manifestBlob));
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(archive), 1 << 16);
                    TarWriter tar = new TarWriter(out, EPOCH)) {
                tar.file("oci-layout", FileMode.REGULAR, json(Map.of("imageLayoutVersion", "1.0.0")));
                tar.directory("blobs", FileMode.EXECUTABLE);
                tar.directory("blobs/sha256", FileMode.EXECUTABLE);
                try (InputStream in = Files.newInputStream(layerFile)) {
                    tar.file(layer.path(), FileMode.REGULAR, layer.size(), in);
                }
                tar.file(configBlob.path(), FileMode.REGULAR, config);
                tar.file(manifestBlob.path(), FileMode.REGULAR, manifest);
                tar.file("index.json", FileMode.REGULAR, index);
            }
            return new OciArchive(image.name(), archive, Files.size(archive), manifestBlob, configBlob, layer);
        } finally {
            Files.deleteIfExists(layerFile);
        }
    }

    private static Blob writeLayer(List<LayerEntry> entries, Path layerFile) throws IOException {
        MessageDigest sha = Digest.sha256();
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(layerFile), 1 << 16);
                DigestOutputStream out = new DigestOutputStream(file, sha);
                TarWriter tar = new TarWriter(out, EPOCH)) {
            for (LayerEntry entry : entries) {
                String name = entry.path().relative();
                switch (entry) {
                    case LayerEntry.Directory d -> tar.directory(name, d.mode());
                    case LayerEntry.Symlink s -> tar.symlink(name, s.target());
                    case LayerEntry.Text t ->
                        tar.file(name, t.mode(), t.content().getBytes(StandardCharsets.UTF_8));
                    case LayerEntry.HostFile f -> {
                        try (InputStream in = Files.newInputStream(f.source())) {
                            tar.file(name, f.mode(), Files.size(f.source()), in);
                        }
                    }
                }
            }
        }
        return new Blob(Blob.LAYER, new Digest(HexFormat.of().formatHex(sha.digest())), Files.size(layerFile));
    }

    private static Map<String, Object> config(ImageSpec image, Blob layer) {
        Map<String, Object> process = new LinkedHashMap<>();
        process.put("Entrypoint", image.entrypoint());
        if (!image.cmd().isEmpty()) {
            process.put("Cmd", image.cmd());
        }
        process.put("Env", image.env());
        process.put("WorkingDir", "/");
        if (!image.user().equals(ImageUser.ROOT)) {
            process.put("User", image.user().spec());
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("created", "1970-01-01T00:00:00Z");
        config.put("architecture", "amd64");
        config.put("os", "linux");
        config.put("config", process);
        // Uncompressed: the layer's diff ID is its own digest.
        config.put(
                "rootfs",
                linked("type", "layers", "diff_ids", List.of(layer.digest().toString())));
        config.put("history", List.of(linked("created", "1970-01-01T00:00:00Z", "created_by", "podnuma images")));
        return config;
    }

    private static Map<String, Object> manifest(Blob config, Blob layer) {
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("schemaVersion", 2);
        manifest.put("mediaType", Blob.MANIFEST);
        manifest.put("config", descriptor(config));
        manifest.put("layers", List.of(descriptor(layer)));
        return manifest;
    }

    private static Map<String, Object> index(ImageName name, Blob manifest) {
        Map<String, Object> entry = descriptor(manifest);
        entry.put("platform", linked("architecture", "amd64", "os", "linux"));
        entry.put("annotations", linked(CONTAINERD_NAME, name.reference(), OCI_REF_NAME, name.tag()));
        Map<String, Object> index = new LinkedHashMap<>();
        index.put("schemaVersion", 2);
        index.put("mediaType", Blob.INDEX);
        index.put("manifests", List.of(entry));
        return index;
    }

    private static Map<String, Object> descriptor(Blob blob) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("mediaType", blob.mediaType());
        d.put("digest", blob.digest().toString());
        d.put("size", blob.size());
        return d;
    }

    private static Map<String, Object> linked(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    private static byte[] json(Object value) {
        return Json.write(value).getBytes(StandardCharsets.UTF_8);
    }
}
