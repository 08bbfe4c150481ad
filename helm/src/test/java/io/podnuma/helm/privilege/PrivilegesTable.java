package io.podnuma.helm.privilege;

import io.podnuma.helm.privilege.Privileges.Grant;
import io.podnuma.helm.privilege.Privileges.Holder;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** The README's RBAC table, made from {@link Privileges#GRANTS}. */
final class PrivilegesTable {

    static final String BEGIN =
            "<!-- rbac-table:begin (generated from helm/src/test/.../privilege/Privileges.java) -->";
    static final String END = "<!-- rbac-table:end -->";

    private static final List<String> VERB_ORDER =
            List.of("get", "list", "watch", "create", "update", "patch", "delete");

    private PrivilegesTable() {}

    static String markdown(List<Grant> grants) {
        StringBuilder b = new StringBuilder();
        b.append("| Identity | Resource | Verbs | Where | Why |\n|---|---|---|---|---|\n");
        for (Grant g : grants) {
            if (g.holder() == Holder.EVERY_SERVICE_ACCOUNT) {
                continue;
            }
            String resource = "`" + g.resource() + "`"
                    + (g.resourceNames().isEmpty() ? "" : " (" + String.join(", ", g.resourceNames()) + ")");
            String why = g.why()
                    + g.part().value().map(v -> " (only with `" + v + "`)").orElse("");
            b.append("| ")
                    .append(g.holder().label())
                    .append(" | ")
                    .append(resource)
                    .append(" | ")
                    .append(verbs(g))
                    .append(" | ")
                    .append(g.scope().label())
                    .append(" | ")
                    .append(why)
                    .append(" |\n");
        }
        b.append("\nBoth also hold what Kubernetes grants every ServiceAccount: ")
                .append(grants.stream()
                        .filter(g -> g.holder() == Holder.EVERY_SERVICE_ACCOUNT)
                        .map(g -> "`" + g.resource() + "`")
                        .collect(Collectors.joining(", ")))
                .append(" (system:basic-user, system:discovery, system:public-info-viewer,"
                        + " system:service-account-issuer-discovery, system:cluster-trust-bundle-discovery). Nothing"
                        + " else: no Secret, no pod write, no RBAC object.\n");
        return b.toString();
    }

    static String replace(String readme, String table) {
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("the README has no " + BEGIN + " ... " + END + " block");
        }
        return readme.substring(0, begin + BEGIN.length()) + "\n" + table + readme.substring(end);
    }

    private static String verbs(Grant g) {
        return g.verbs().stream()
                .sorted(Comparator.comparingInt(v -> VERB_ORDER.indexOf(v) < 0 ? 99 : VERB_ORDER.indexOf(v)))
                .collect(Collectors.joining(", "));
    }
}
