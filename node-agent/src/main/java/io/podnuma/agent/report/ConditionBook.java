package io.podnuma.agent.report;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The agent's conditions as an immutable value. A condition keeps its {@code lastTransitionTime} while its status
 * stays the same, so re-stating a condition does not change the rendered object (and causes no write).
 */
public record ConditionBook(Map<String, Condition> byType) {

    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";

    public ConditionBook {
        byType = Collections.unmodifiableMap(new TreeMap<>(byType));
    }

    public static ConditionBook empty() {
        return new ConditionBook(Map.of());
    }

    public ConditionBook with(String type, String status, String reason, String message, Instant now) {
        Objects.requireNonNull(now, "now");
        if (!List.of(TRUE, FALSE, UNKNOWN).contains(status)) {
            throw new IllegalArgumentException(
                    "condition " + type + ": status \"" + status + "\" is not allowed: use True, False or Unknown");
        }
        Condition previous = byType.get(type);
        String since = previous != null && previous.getStatus().equals(status)
                ? previous.getLastTransitionTime()
                : now.truncatedTo(ChronoUnit.SECONDS).toString();
        TreeMap<String, Condition> next = new TreeMap<>(byType);
        next.put(
                type,
                new ConditionBuilder()
                        .withType(type)
                        .withStatus(status)
                        .withReason(reason)
                        .withMessage(message)
                        .withLastTransitionTime(since)
                        .build());
        return new ConditionBook(next);
    }

    /** {@code KubeletConflict}: True on a conflict, Unknown when a kubelet file cannot be read, else False. */
    public ConditionBook withKubelet(KubeletCheck check, Instant now) {
        return switch (check.verdict()) {
            case CONFLICT ->
                with(
                        NumaNodeStateStatus.CONDITION_KUBELET_CONFLICT,
                        TRUE,
                        "KubeletManagerActive",
                        check.message(),
                        now);
            case UNREADABLE ->
                with(
                        NumaNodeStateStatus.CONDITION_KUBELET_CONFLICT,
                        UNKNOWN,
                        "KubeletFileUnreadable",
                        check.message(),
                        now);
            case COMPATIBLE ->
                with(
                        NumaNodeStateStatus.CONDITION_KUBELET_CONFLICT,
                        FALSE,
                        "KubeletManagersNone",
                        check.message(),
                        now);
            case NOT_CHECKED ->
                with(NumaNodeStateStatus.CONDITION_KUBELET_CONFLICT, FALSE, "NotChecked", check.message(), now);
        };
    }

    /** In type order, the form the API object carries. */
    public List<Condition> conditions() {
        return List.copyOf(byType.values());
    }
}
