package io.podnuma.agent.report;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.podnuma.agent.kubelet.KubeletCheck;
import io.podnuma.crds.v1alpha1.ConditionStatus;
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

    public static final String TRUE = ConditionStatus.TRUE.wire();
    public static final String FALSE = ConditionStatus.FALSE.wire();
    public static final String UNKNOWN = ConditionStatus.UNKNOWN.wire();

    public ConditionBook {
        byType = Collections.unmodifiableMap(new TreeMap<>(byType));
    }

    public static ConditionBook empty() {
        return new ConditionBook(Map.of());
    }

    /** The condition of the reason's type, with the reason's status. */
    public ConditionBook with(ConditionReason reason, String message, Instant now) {
        return with(reason.type().wire(), reason.status().wire(), reason.wire(), message, now);
    }

    /** The form on the wire, where any text can be given; for the tests of that form. */
    ConditionBook with(String type, String status, String reason, String message, Instant now) {
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
        ConditionReason reason = switch (check.verdict()) {
            case CONFLICT -> ConditionReason.KUBELET_MANAGER_ACTIVE;
            case UNREADABLE -> ConditionReason.KUBELET_FILE_UNREADABLE;
            case COMPATIBLE -> ConditionReason.KUBELET_MANAGERS_NONE;
            case NOT_CHECKED -> ConditionReason.KUBELET_NOT_CHECKED;
        };
        return with(reason, check.message(), now);
    }

    /** In type order, the form the API object carries. */
    public List<Condition> conditions() {
        return List.copyOf(byType.values());
    }
}
