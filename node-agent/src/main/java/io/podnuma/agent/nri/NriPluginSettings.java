package io.podnuma.agent.nri;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where the runtime's NRI socket is, who we register as, and how fast we retry. The runtime refuses an external
 * plugin whose name is not {@code [a-zA-Z0-9_.+-]+} or whose index is not two digits; plugins are called in
 * ascending index order.
 */
public record NriPluginSettings(
        Path socket, String pluginName, String pluginIndex, Duration reconnectMin, Duration reconnectMax) {

    /** Where containerd and CRI-O listen by default. */
    public static final Path DEFAULT_SOCKET = Path.of("/var/run/nri/nri.sock");

    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_.+-]+");
    private static final Pattern INDEX = Pattern.compile("[0-9]{2}");

    public NriPluginSettings {
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(pluginName, "pluginName");
        Objects.requireNonNull(pluginIndex, "pluginIndex");
        Objects.requireNonNull(reconnectMin, "reconnectMin");
        Objects.requireNonNull(reconnectMax, "reconnectMax");
        if (!NAME.matcher(pluginName).matches()) {
            throw new IllegalArgumentException("pluginName '" + pluginName
                    + "' must be one or more of the characters a-z A-Z 0-9 _ . + - (the runtime refuses others)");
        }
        if (!INDEX.matcher(pluginIndex).matches()) {
            throw new IllegalArgumentException(
                    "pluginIndex '" + pluginIndex + "' must be exactly two digits, 00 to 99");
        }
        if (reconnectMin.isNegative() || reconnectMin.isZero()) {
            throw new IllegalArgumentException("reconnectMin " + reconnectMin + " must be positive");
        }
        if (reconnectMax.compareTo(reconnectMin) < 0) {
            throw new IllegalArgumentException(
                    "reconnectMax " + reconnectMax + " must be at least reconnectMin " + reconnectMin);
        }
    }

    /** The name the runtime logs and matches {@code required_plugins} against: {@code <index>-<name>}. */
    public String qualifiedName() {
        return pluginIndex + "-" + pluginName;
    }
}
