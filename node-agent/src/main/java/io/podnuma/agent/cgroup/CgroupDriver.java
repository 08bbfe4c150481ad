package io.podnuma.agent.cgroup;

import java.util.Locale;

/** How the kubelet names pod cgroups: plain directories or systemd slices. */
public enum CgroupDriver {
    CGROUPFS("cgroupfs", "kubepods"),
    SYSTEMD("systemd", "kubepods.slice");

    private final String settingName;
    private final String kubepodsName;

    CgroupDriver(String settingName, String kubepodsName) {
        this.settingName = settingName;
        this.kubepodsName = kubepodsName;
    }

    /** The kubelet's spelling of the driver ({@code cgroupDriver} in its configuration). */
    public String settingName() {
        return settingName;
    }

    /** The name of the directory that holds every pod cgroup, directly under a hierarchy root. */
    public String kubepodsName() {
        return kubepodsName;
    }

    /**
     * Parses the kubelet's spelling.
     *
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static CgroupDriver fromSetting(String value) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        for (CgroupDriver d : values()) {
            if (d.settingName.equals(v)) {
                return d;
            }
        }
        throw new IllegalArgumentException(
                "cgroup driver \"" + value + "\" is not supported: allowed values are cgroupfs and systemd");
    }
}
