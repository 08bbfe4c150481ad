package io.podnuma.oci;

/** A content-addressed blob of an image layout: what a descriptor points at. */
public record Blob(String mediaType, Digest digest, long size) {
    public static final String LAYER = "application/vnd.oci.image.layer.v1.tar";
    public static final String CONFIG = "application/vnd.oci.image.config.v1+json";
    public static final String MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    public static final String INDEX = "application/vnd.oci.image.index.v1+json";

    public String path() {
        return "blobs/sha256/" + digest.hex();
    }
}
