package io.podnuma.agent.cgroup.partition;

import io.podnuma.agent.engine.cpuset.CpuSet;
import java.util.Objects;
import java.util.Optional;

/**
 * One cgroup's partition as the kernel reports it.
 *
 * @param type what {@code cpuset.cpus.partition} says it is (or was asked to be, when invalid)
 * @param invalid why the kernel does not honour it ({@code isolated invalid (Parent is not a partition root)}: the
 *     text in the parentheses); empty when it is in force
 * @param exclusive its {@code cpuset.cpus.exclusive}
 */
public record PartitionState(PartitionType type, Optional<String> invalid, CpuSet exclusive) {

    public PartitionState {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(invalid, "invalid");
        Objects.requireNonNull(exclusive, "exclusive");
    }

    /** Whether the cgroup is a partition the kernel honours. */
    public boolean inForce() {
        return type != PartitionType.MEMBER && invalid.isEmpty();
    }

    /**
     * @param partition the content of {@code cpuset.cpus.partition}: {@code member}, {@code root}, {@code isolated},
     *     or one of the last two followed by {@code invalid (<reason>)}
     * @param exclusive the content of {@code cpuset.cpus.exclusive}
     * @throws IllegalArgumentException for anything else
     */
    public static PartitionState parse(String partition, String exclusive) {
        String text = partition.strip();
        String word = text.split("\\s+", 2)[0];
        PartitionType type = null;
        for (PartitionType t : PartitionType.values()) {
            if (t.wire().equals(word)) {
                type = t;
            }
        }
        if (type == null) {
            throw new IllegalArgumentException("cpuset.cpus.partition \"" + text
                    + "\": expected member, root or isolated, possibly followed by invalid (<reason>)");
        }
        String rest = text.substring(word.length()).strip();
        Optional<String> invalid = Optional.empty();
        if (!rest.isEmpty()) {
            if (!rest.startsWith("invalid")) {
                throw new IllegalArgumentException("cpuset.cpus.partition \"" + text
                        + "\": after the type only \"invalid (<reason>)\" is expected");
            }
            String reason = rest.substring("invalid".length()).strip();
            if (reason.startsWith("(") && reason.endsWith(")")) {
                reason = reason.substring(1, reason.length() - 1);
            }
            invalid = Optional.of(reason.isEmpty() ? "invalid" : reason);
        }
        String cpus = exclusive.strip();
        return new PartitionState(type, invalid, cpus.isEmpty() ? CpuSet.empty() : CpuSet.parse(cpus));
    }
}
