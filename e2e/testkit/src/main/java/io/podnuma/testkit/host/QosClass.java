package io.podnuma.testkit.host;

import java.util.Locale;

/** A pod's {@code status.qosClass}, as the kubelet decides it and names its cgroups after it. */
public enum QosClass {
    GUARANTEED("Guaranteed"),
    BURSTABLE("Burstable"),
    BEST_EFFORT("BestEffort");

    private final String wireName;

    QosClass(String wireName) {
        this.wireName = wireName;
    }

    /** The value of {@code status.qosClass}. */
    public String wireName() {
        return wireName;
    }

    /**
     * The class of a {@code status.qosClass} value.
     *
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static QosClass of(String wireName) {
        for (QosClass q : values()) {
            if (q.wireName.equals(wireName)) {
                return q;
            }
        }
        throw new IllegalArgumentException(
                "qosClass \"" + wireName + "\" is not one of Guaranteed, Burstable, BestEffort");
    }

    /** The kubelet's lower-case name of the class in cgroup names ({@code burstable}, {@code besteffort}). */
    String cgroupName() {
        return wireName.toLowerCase(Locale.ROOT);
    }
}
