package io.podnuma.oci;

import java.nio.file.Path;

/** An image written as an OCI image layout tar: where it is and what its index points at. */
public record OciArchive(ImageName name, Path file, long size, Blob manifest, Blob config, Blob layer) {}
