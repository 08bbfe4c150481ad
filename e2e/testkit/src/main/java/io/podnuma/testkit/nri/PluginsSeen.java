package io.podnuma.testkit.nri;

import java.util.List;
import java.util.Optional;

/**
 * What the harness runtime knew of its plugins at the end of a wait: whether the wait was met, the plugins connected
 * ({@code <index>-<name>}, sorted), every registration since the start in order, and why the wait was not met.
 */
public record PluginsSeen(
        boolean met, List<String> connected, List<PluginRegistration> registrations, Optional<String> error) {

    public PluginsSeen {
        connected = List.copyOf(connected);
        registrations = List.copyOf(registrations);
    }
}
