package io.podnuma.testkit.nri;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How the harness runtime presents itself to plugins: the timeouts the adaptation enforces (and sends in Configure)
 * and the runtime name and version it reports.
 */
public record HarnessOptions(
        Duration requestTimeout, Duration registrationTimeout, String runtimeName, String runtimeVersion) {

    /** containerd's defaults ({@code plugin_request_timeout} 2 s, {@code plugin_registration_timeout} 5 s). */
    public static final HarnessOptions CONTAINERD_DEFAULTS =
            new HarnessOptions(Duration.ofSeconds(2), Duration.ofSeconds(5), "containerd", "v2.4.2");

    public HarnessOptions {
        Objects.requireNonNull(runtimeName, "runtimeName");
        Objects.requireNonNull(runtimeVersion, "runtimeVersion");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive: " + requestTimeout);
        }
        if (registrationTimeout.isNegative() || registrationTimeout.isZero()) {
            throw new IllegalArgumentException("registrationTimeout must be positive: " + registrationTimeout);
        }
    }

    public HarnessOptions withRequestTimeout(Duration timeout) {
        return new HarnessOptions(timeout, registrationTimeout, runtimeName, runtimeVersion);
    }

    public HarnessOptions withRuntimeVersion(String version) {
        return new HarnessOptions(requestTimeout, registrationTimeout, runtimeName, version);
    }

    List<String> args() {
        return List.of(
                "--request-timeout",
                requestTimeout.toMillis() + "ms",
                "--registration-timeout",
                registrationTimeout.toMillis() + "ms",
                "--runtime-name",
                runtimeName,
                "--runtime-version",
                runtimeVersion);
    }
}
