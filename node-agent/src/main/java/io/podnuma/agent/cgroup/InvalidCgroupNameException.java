package io.podnuma.agent.cgroup;

/**
 * A container ID, pod UID or cgroup path that does not have the form the kubelet and the runtimes
 * produce. The message names the input, the part at fault and what is allowed.
 */
public final class InvalidCgroupNameException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidCgroupNameException(String message) {
        super(message);
    }

    static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        int n = Math.min(s.length(), 160);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        if (s.length() > n) {
            b.append("...");
        }
        return b.append('"').toString();
    }
}
