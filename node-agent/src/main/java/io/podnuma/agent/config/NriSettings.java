package io.podnuma.agent.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the agent meets the runtime as an NRI plugin (used unless pinning is {@link PinningMode#CGROUP}).
 *
 * @param socket the runtime's NRI socket as the agent sees it (containerd and CRI-O default to
 *     {@code /var/run/nri/nri.sock})
 * @param pluginName the name it registers with; the runtime refuses any but {@code [a-zA-Z0-9_.+-]+}
 * @param pluginIndex two digits {@code 00}..{@code 99}: the runtime calls plugins in ascending index order (text, so
 *     {@code 05} stays two digits)
 */
public record NriSettings(Path socket, String pluginName, String pluginIndex) {

    static final Pattern PLUGIN_NAME = Pattern.compile("[a-zA-Z0-9_.+-]+");
    static final Pattern PLUGIN_INDEX = Pattern.compile("[0-9]{2}");

    public NriSettings {
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(pluginName, "pluginName");
        Objects.requireNonNull(pluginIndex, "pluginIndex");
        if (!socket.isAbsolute()) {
            throw new IllegalArgumentException("NRI socket " + socket + ": allowed an absolute path");
        }
        if (!PLUGIN_NAME.matcher(pluginName).matches()) {
            throw new IllegalArgumentException("NRI plugin name \"" + pluginName + "\": " + Setting.PLUGIN_NAME_RULE);
        }
        if (!PLUGIN_INDEX.matcher(pluginIndex).matches()) {
            throw new IllegalArgumentException(
                    "NRI plugin index \"" + pluginIndex + "\": " + Setting.PLUGIN_INDEX_RULE);
        }
    }
}
