package io.podnuma.agent.cgroup;

import static io.podnuma.agent.cgroup.InvalidCgroupNameException.quote;

/** Pod UIDs as they appear in cgroup names. */
final class PodUids {

    private PodUids() {}

    /**
     * Accepts an API-server UID ({@code 8-4-4-4-12} lowercase hex) or a static pod's UID (32 hex
     * digits: the kubelet derives it from a hash of the manifest).
     */
    static void check(String uid) {
        if (uid == null) {
            throw new InvalidCgroupNameException("pod UID is null: " + FORMS);
        }
        if (uid.length() == 32) {
            for (int i = 0; i < 32; i++) {
                if (!ContainerId.isLowerHex(uid.charAt(i))) {
                    throw bad(uid, i);
                }
            }
            return;
        }
        if (uid.length() != 36) {
            throw new InvalidCgroupNameException(
                    "pod UID " + quote(uid) + " has " + uid.length() + " characters: " + FORMS);
        }
        for (int i = 0; i < 36; i++) {
            char c = uid.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : !ContainerId.isLowerHex(c)) {
                throw bad(uid, i);
            }
        }
    }

    private static final String FORMS =
            "expected a UUID such as 0c3e8f2a-5b1d-4e6f-9a7b-1c2d3e4f5a6b or 32 lowercase hex digits (static pod)";

    private static InvalidCgroupNameException bad(String uid, int i) {
        return new InvalidCgroupNameException("pod UID " + quote(uid) + " has " + quote(String.valueOf(uid.charAt(i)))
                + " at position " + i + ": " + FORMS);
    }
}
