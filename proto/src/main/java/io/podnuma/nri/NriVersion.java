package io.podnuma.nri;

/** The NRI release whose {@code api.proto} the subset in {@code nri/v1alpha1/api.proto} follows. */
public final class NriVersion {

    /** Sent as {@code RegisterPluginRequest.NRI_version}; runtimes log it and use it for nothing else. */
    public static final String SPOKEN = "v0.12.3";

    private NriVersion() {}
}
