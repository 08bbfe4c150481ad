package io.podnuma.testkit.nri;

import io.podnuma.nri.v1alpha1.ContainerUpdate;
import java.util.List;
import java.util.Optional;

/**
 * One plugin connection the harness runtime went through: its name once it registered ({@code ""} when it failed
 * before), how its Synchronize went ({@code syncMessages} above 1: the sync was split; {@code oversizedAttempts}:
 * messages ttrpc refused as over 4 MiB before the adaptation split them), the state it was sent, the updates it
 * returned, and the error that dropped it, if one did.
 */
public record PluginRegistration(
        String plugin,
        int syncMessages,
        int oversizedAttempts,
        int pods,
        int containers,
        List<ContainerUpdate> updates,
        Optional<String> error) {

    public PluginRegistration {
        updates = List.copyOf(updates);
    }

    public boolean succeeded() {
        return error.isEmpty();
    }
}
