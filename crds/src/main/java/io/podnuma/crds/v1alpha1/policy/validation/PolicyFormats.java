package io.podnuma.crds.v1alpha1.policy.validation;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The string formats of the {@code NumaResourcePolicy} CRD, checked the way its OpenAPI patterns and CEL rules
 * check them. Each method returns null when the value is fine, else what is wrong and what is allowed.
 */
final class PolicyFormats {

    static final int MAX_CPU_ID = 9999;

    private static final Pattern CPU_LIST = Pattern.compile("[0-9]{1,4}(-[0-9]{1,4})?(,[0-9]{1,4}(-[0-9]{1,4})?)*");
    private static final Pattern GO_DURATION = Pattern.compile("([0-9]+([.][0-9]+)?(ns|us|ms|s|m|h))+");
    private static final Pattern GO_DURATION_PART = Pattern.compile("([0-9]+(?:[.][0-9]+)?)(ns|us|ms|s|m|h)");
    private static final Pattern QUANTITY = Pattern.compile(
            "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?");
    private static final Pattern HUGEPAGES = Pattern.compile("hugepages-[1-9][0-9]*(Ki|Mi|Gi)");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern QUALIFIED_NAME_PART = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");

    private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);

    private PolicyFormats() {}

    /** A Linux CPU list with ids 0-9999, ranges going upward, items ascending without overlap. */
    static String cpuList(String v) {
        if (!CPU_LIST.matcher(v).matches()) {
            return "allowed a Linux CPU list such as 0-3,8,10-11: CPU ids (0-" + MAX_CPU_ID
                    + ") or first-last ranges, separated by commas";
        }
        int previousEnd = -1;
        for (String item : v.split(",")) {
            int dash = item.indexOf('-');
            int first = Integer.parseInt(dash < 0 ? item : item.substring(0, dash));
            int last = dash < 0 ? first : Integer.parseInt(item.substring(dash + 1));
            if (last < first || first <= previousEnd) {
                return "CPU ranges must go upward (first-last with first <= last) and be listed in ascending order"
                        + " without overlap, e.g. 0-3,8 rather than 8,0-3 or 3-0";
            }
            previousEnd = last;
        }
        return null;
    }

    /**
     * A Go duration of positive parts ({@code 10s}, {@code 1m30s}, {@code 1.5h}) as nanoseconds, or null when the
     * syntax is wrong.
     */
    static BigDecimal goDurationNanos(String v) {
        if (!GO_DURATION.matcher(v).matches()) {
            return null;
        }
        BigDecimal total = BigDecimal.ZERO;
        Matcher m = GO_DURATION_PART.matcher(v);
        while (m.find()) {
            BigDecimal n = new BigDecimal(m.group(1));
            long unitNanos = switch (m.group(2)) {
                case "ns" -> 1L;
                case "us" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            total = total.add(n.multiply(BigDecimal.valueOf(unitNanos)));
        }
        return total;
    }

    static BigDecimal seconds(long s) {
        return BigDecimal.valueOf(s).multiply(NANOS_PER_SECOND);
    }

    /** A Kubernetes quantity above zero ({@code 1Gi}, {@code 512Mi}, {@code 1e9}). */
    static String positiveQuantity(String v) {
        Matcher m = QUANTITY.matcher(v);
        if (!m.matches()) {
            return "not a quantity: allowed a number with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, k, M, G, T, P, E"
                    + " or an exponent, e.g. 1Gi or 512Mi";
        }
        if (new BigDecimal(m.group(1)).signum() <= 0) {
            return "allowed a positive quantity such as 1Gi or 512Mi (the kubelet rejects a zero reservation)";
        }
        return null;
    }

    /** A per-NUMA-node reservation names memory or a huge page size. */
    static boolean reservableResource(String name) {
        return name.equals("memory") || HUGEPAGES.matcher(name).matches();
    }

    /** An annotation key: an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
    static String annotationKey(String v) {
        String allowed = "allowed an annotation key: an optional DNS subdomain prefix and '/', then a name of at most"
                + " 63 characters (alphanumerics, '-', '_', '.') that starts and ends with an alphanumeric, e.g."
                + " podnuma.io/pod-resources";
        int slash = v.indexOf('/');
        String name = slash < 0 ? v : v.substring(slash + 1);
        if (slash >= 0) {
            String prefix = v.substring(0, slash);
            if (prefix.isEmpty()
                    || prefix.length() > 253
                    || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                return allowed;
            }
        }
        if (name.isEmpty()
                || name.length() > 63
                || !QUALIFIED_NAME_PART.matcher(name).matches()) {
            return allowed;
        }
        return null;
    }
}
