package io.podnuma.operator.render;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The API server's rules for label keys and values (also taint keys and values), so that a bad one is refused with
 * its reason when the operator starts rather than by the API server at every reconcile.
 */
public final class LabelSyntax {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    public static final String KEY_RULE = "a label key: an optional DNS subdomain prefix and '/', then a name of at"
            + " most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit"
            + " (example.com/tier)";
    public static final String VALUE_RULE = "a label value: empty or at most 63 letters, digits, '-', '_' and '.',"
            + " starting and ending with a letter or digit";

    private LabelSyntax() {}

    /** Empty when {@code key} is a valid label key, else {@link #KEY_RULE}. */
    public static Optional<String> keyProblem(String key) {
        int slash = key.lastIndexOf('/');
        String prefix = slash < 0 ? null : key.substring(0, slash);
        String name = key.substring(slash + 1);
        boolean prefixOk = prefix == null
                || (!prefix.isEmpty()
                        && prefix.length() <= 253
                        && DNS_SUBDOMAIN.matcher(prefix).matches());
        boolean nameOk = name.length() <= 63 && NAME.matcher(name).matches();
        return prefixOk && nameOk ? Optional.empty() : Optional.of(KEY_RULE);
    }

    /** Empty when {@code value} is a valid label value, else {@link #VALUE_RULE}. */
    public static Optional<String> valueProblem(String value) {
        return value.isEmpty() || (value.length() <= 63 && NAME.matcher(value).matches())
                ? Optional.empty()
                : Optional.of(VALUE_RULE);
    }
}
