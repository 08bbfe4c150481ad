package io.podnuma.agent.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * Checks a listen address without resolving it: an IPv4 literal, an IPv6 literal, or a host name (resolved when
 * the server binds, so a name the node cannot resolve yet is not a configuration error).
 */
final class BindAddress {

    private static final Pattern DIGITS_AND_DOTS = Pattern.compile("[0-9.]+");
    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}");
    private static final Pattern HOST_LABEL = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?");
    /** Starting with a hex digit or ':' keeps InetAddress on its literal path (anything else it would look up). */
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:][0-9A-Fa-f:.]*");

    private static final String ALLOWED =
            "allowed an IPv4 address (0.0.0.0 for all), an IPv6 address without brackets (:: for all) or a host"
                    + " name";

    private BindAddress() {}

    static String parse(String v) {
        if (v.contains(":")) {
            return ipv6(v);
        }
        if (DIGITS_AND_DOTS.matcher(v).matches()) {
            if (!IPV4.matcher(v).matches()) {
                throw new IllegalArgumentException(
                        "not an IPv4 address (four numbers 0-255 without leading zeros);" + " " + ALLOWED);
            }
            return v;
        }
        String host = v.endsWith(".") ? v.substring(0, v.length() - 1) : v;
        if (host.isEmpty() || host.length() > 253) {
            throw new IllegalArgumentException(ALLOWED);
        }
        for (String label : host.split("\\.", -1)) {
            if (!HOST_LABEL.matcher(label).matches()) {
                throw new IllegalArgumentException("not a host name (labels of letters, digits and '-', at most 63"
                        + " characters, separated by dots); " + ALLOWED);
            }
        }
        return v;
    }

    private static String ipv6(String v) {
        // Only hex digits, colons and dots reach InetAddress, which parses a literal and never asks DNS.
        if (!IPV6_CHARS.matcher(v).matches()) {
            throw new IllegalArgumentException("not an IPv6 address; " + ALLOWED);
        }
        try {
            InetAddress.getByName(v);
            return v;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IPv6 address; " + ALLOWED, e);
        }
    }
}
