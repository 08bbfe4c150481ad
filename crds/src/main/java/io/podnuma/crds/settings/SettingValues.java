package io.podnuma.crds.settings;

import java.util.regex.Pattern;

/**
 * The value rules both components' settings use. Each returns the value read or throws an IllegalArgumentException
 * whose message says what is allowed ({@code allowed a TCP port 1..65535}); {@link SettingType.Text} puts the source
 * and the value in front.
 */
public final class SettingValues {

    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private SettingValues() {}

    public static int port(String v) {
        try {
            int p = Integer.parseInt(v);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below, as an out-of-range number is
        }
        throw new IllegalArgumentException("allowed a TCP port 1..65535");
    }

    /** A path starting with {@code /}, as written. */
    public static String absolutePath(String v) {
        if (!v.startsWith("/") || v.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("allowed an absolute path (starting with /)");
        }
        return v;
    }

    public static boolean bool(String v) {
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("allowed true or false");
        };
    }

    /** A namespace's name. */
    public static String dnsLabel(String v) {
        if (v.length() > 63 || !DNS_LABEL.matcher(v).matches()) {
            throw new IllegalArgumentException("allowed a DNS label: at most 63 lowercase letters, digits and '-',"
                    + " starting and ending with a letter or digit");
        }
        return v;
    }

    /** Whether {@code v} can name most objects: a node, a ServiceAccount, a Secret, a Lease. */
    public static boolean isDnsSubdomain(String v) {
        return v.length() <= 253 && DNS_SUBDOMAIN.matcher(v).matches();
    }

    public static String dnsSubdomain(String v) {
        if (!isDnsSubdomain(v)) {
            throw new IllegalArgumentException(
                    "allowed a DNS subdomain: at most 253 lowercase letters, digits, '-' and '.'");
        }
        return v;
    }
}
