package io.podnuma.controlplane;

/**
 * The control plane cannot run on this machine for a reason outside the code under test (no Go toolchain,
 * no openssl, no build script to find); tests that need it are skipped with this message.
 */
public final class ControlPlaneUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ControlPlaneUnavailableException(String message) {
        super(message);
    }
}
