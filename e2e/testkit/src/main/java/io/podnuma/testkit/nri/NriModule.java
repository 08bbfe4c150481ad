package io.podnuma.testkit.nri;

/**
 * The Go modules of the harness, one per {@code github.com/containerd/nri} version it is built against (the same
 * code: the older modules link every file but their {@code version.go} to {@code nriruntime}).
 */
public enum NriModule {
    /** What containerd 2.2+ and CRI-O 1.34+ embed (v0.10 and newer); dedicated event RPCs since v0.12. */
    NRI_0_12_3("v0.12.3", "nriruntime"),
    /**
     * What containerd 1.7.26+, 2.0 and 2.1 embed: no {@code NRI_version} in Configure, events without a dedicated RPC
     * come as StateChange, events 12-14 in a subscription are refused.
     */
    NRI_0_8_0("v0.8.0", "nriruntime-v0.8");

    private final String version;
    private final String directory;

    NriModule(String version, String directory) {
        this.version = version;
        this.directory = directory;
    }

    /** The {@code github.com/containerd/nri} version its go.mod pins. */
    public String version() {
        return version;
    }

    /** Its directory under {@code e2e/testkit/src/main/go}, also the binary's name. */
    String directory() {
        return directory;
    }
}
