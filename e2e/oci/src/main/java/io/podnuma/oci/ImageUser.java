package io.podnuma.oci;

/**
 * Who an image's process runs as ({@code config.User}, numeric: no {@code /etc/passwd} lookup needed). Root is the
 * default of an image that names none.
 */
public record ImageUser(int uid, int gid) {

    public static final ImageUser ROOT = new ImageUser(0, 0);
    /** The conventional unprivileged user of distroless images: no host file belongs to it. */
    public static final ImageUser NONROOT = new ImageUser(65532, 65532);

    public ImageUser {
        if (uid < 0 || gid < 0) {
            throw new IllegalArgumentException("uid " + uid + ", gid " + gid + ": allowed 0 or more");
        }
    }

    /** As the image config spells it: {@code uid:gid}. */
    public String spec() {
        return uid + ":" + gid;
    }
}
