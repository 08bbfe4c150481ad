package io.podnuma.crds.v1alpha1;

/**
 * String formats shared by the API's validation annotations. They are compile-time constants because annotation values
 * must be; the CRD schema carries them as OpenAPI patterns or inside CEL rules.
 */
public final class Formats {

    /**
     * A non-empty Linux CPU list ({@code 0-3,8,10-11}): ids or {@code a-b} ranges separated by commas. A regular
     * expression cannot check that ranges go upward and come in ascending order; {@link #CPU_LIST_ORDER_RULE} does.
     */
    public static final String CPU_LIST_REGEX = "^[0-9]{1,4}(-[0-9]{1,4})?(,[0-9]{1,4}(-[0-9]{1,4})?)*$";

    /** A CPU list as {@link #CPU_LIST_REGEX}, or the empty string for "no CPU" (used in status). */
    public static final String CPU_LIST_OR_EMPTY_REGEX = "^$|" + CPU_LIST_REGEX;

    /** CEL: the value has the CPU list syntax. */
    public static final String CPU_LIST_SYNTAX_RULE = "self.matches('" + CPU_LIST_REGEX + "')";

    /**
     * CEL: every range is ascending and every item starts above the previous one's end. Each item {@code a-b} becomes
     * {@code [2a, 2b+1]}; the flattened list is sorted exactly when the ranges are ordered and disjoint (the parity
     * keeps a start from equalling an end). Skipped when the syntax is wrong, so only the syntax error shows.
     */
    public static final String CPU_LIST_ORDER_RULE = "!" + CPU_LIST_SYNTAX_RULE
            + " || self.split(',').map(r, r.split('-'))"
            + ".map(p, [int(p[0]) * 2, int(p[size(p) - 1]) * 2 + 1]).flatten().isSorted()";

    public static final String CPU_LIST_SYNTAX_MESSAGE =
            "must be a Linux CPU list such as 0-3,8,10-11: CPU ids (0-9999) or first-last ranges, separated by commas";

    public static final String CPU_LIST_ORDER_MESSAGE =
            "CPU ranges must go upward (first-last with first <= last) and be listed in ascending order without"
                    + " overlap, e.g. 0-3,8 rather than 8,0-3 or 3-0";

    /** A Go duration made of positive units, as the kubelet's configuration accepts ({@code 10s}, {@code 1m30s}). */
    public static final String DURATION_REGEX = "^([0-9]+([.][0-9]+)?(ns|us|ms|s|m|h))+$";

    /** A huge page size as the kernel and the {@code hugepages-<size>} resource names spell it. */
    public static final String PAGE_SIZE_REGEX = "^[1-9][0-9]*(Ki|Mi|Gi)$";

    /** A Kubernetes object UID. */
    public static final String UID_REGEX = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

    private Formats() {}
}
