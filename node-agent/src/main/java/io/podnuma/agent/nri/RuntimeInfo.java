package io.podnuma.agent.nri;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The runtime as it introduced itself in Configure. {@code requestTimeout} is the budget of every call it makes to
 * us: a handler that overruns it gets the connection closed and the container created as if we had said nothing.
 * {@code nriVersion} is sent by runtimes with NRI v0.12 or newer only.
 */
public record RuntimeInfo(
        String name,
        String version,
        Optional<String> nriVersion,
        Duration registrationTimeout,
        Duration requestTimeout) {

    public RuntimeInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(nriVersion, "nriVersion");
        Objects.requireNonNull(registrationTimeout, "registrationTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
    }
}
