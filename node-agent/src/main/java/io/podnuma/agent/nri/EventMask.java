package io.podnuma.agent.nri;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The subscription in {@code ConfigureResponse.events}: bit {@code event - 1} per event (event 1 is bit 0). Two
 * traps: a mask of 0 subscribes to everything, and a runtime refuses Configure when the mask names an event it does
 * not know, so events 12 to 14 are only sent to a runtime that says it has NRI v0.10 or newer.
 */
public record EventMask(int bits) {

    /**
     * What pinning needs: create, update (and after it: a cgroup the runtime wrote is read again), stop, remove a
     * container; remove a pod. {@code 0x78C}.
     */
    public static final EventMask PINNING = of(EnumSet.of(
            NriEvent.CREATE_CONTAINER,
            NriEvent.UPDATE_CONTAINER,
            NriEvent.POST_UPDATE_CONTAINER,
            NriEvent.STOP_CONTAINER,
            NriEvent.REMOVE_CONTAINER,
            NriEvent.REMOVE_POD_SANDBOX));

    private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)(?:\\..*)?");

    public static EventMask of(Set<NriEvent> events) {
        int bits = 0;
        for (NriEvent e : events) {
            bits |= bit(e);
        }
        return new EventMask(bits);
    }

    public static int bit(NriEvent event) {
        return 1 << (event.number() - 1);
    }

    public boolean contains(NriEvent event) {
        return (bits & bit(event)) != 0;
    }

    /**
     * This mask without the events the runtime cannot know: 12 to 14 stay only when {@code runtimeNriVersion} (from
     * Configure, sent since v0.12) is v0.10 or newer; an absent or unreadable version counts as older.
     */
    public EventMask forRuntime(Optional<String> runtimeNriVersion) {
        if (runtimeNriVersion.map(EventMask::atLeastV010).orElse(false)) {
            return this;
        }
        int kept = bits;
        for (NriEvent e : NriEvent.values()) {
            if (e.needsNri010()) {
                kept &= ~bit(e);
            }
        }
        return new EventMask(kept);
    }

    private static boolean atLeastV010(String version) {
        Matcher m = VERSION.matcher(version.trim());
        if (!m.matches()) {
            return false;
        }
        try {
            int major = Integer.parseInt(m.group(1));
            int minor = Integer.parseInt(m.group(2));
            return major > 0 || minor >= 10;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return String.format("0x%X", bits);
    }
}
