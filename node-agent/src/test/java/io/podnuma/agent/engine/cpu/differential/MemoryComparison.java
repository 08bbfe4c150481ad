package io.podnuma.agent.engine.cpu.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares the Java and kubelet answers to a {@link MemoryCase} field by field and operation by operation,
 * and sorts each difference into explained (by a {@link MemoryKnownDifferences} entry) or not. Refusal and
 * admission error wording is not compared, only whether there is one.
 */
final class MemoryComparison {

    /**
     * One differing field.
     *
     * @param op the operation index, -1 for the configuration and the initial books
     * @param field {@code refused}, {@code hints}, {@code blocks}, {@code error} or {@code table}
     */
    record Difference(int op, String field, String detail) {
        @Override
        public String toString() {
            return (op < 0 ? "start" : "op " + op) + " " + field + ": " + detail;
        }
    }

    /**
     * The verdict on one case.
     *
     * @param unexplained differences no entry explains
     * @param allowed names of the entries that explained the other differences
     * @param comparedOps how many operations were compared (an entry may end the comparison early)
     */
    record Verdict(List<Difference> unexplained, Set<String> allowed, int comparedOps) {
        boolean identical() {
            return unexplained.isEmpty() && allowed.isEmpty();
        }
    }

    private MemoryComparison() {}

    static Verdict judge(MemoryCase.Memory in, MemoryAnswer.Result java, MemoryAnswer.Result kubelet) {
        List<Difference> unexplained = new ArrayList<>();
        Set<String> allowed = new TreeSet<>();
        if ((java.createError() == null) != (kubelet.createError() == null)) {
            unexplained.add(
                    new Difference(-1, "refused", "java=" + java.createError() + " kubelet=" + kubelet.createError()));
            return new Verdict(unexplained, allowed, 0);
        }
        if (java.createError() != null) {
            return new Verdict(unexplained, allowed, 0);
        }
        if (!Objects.equals(java.table(), kubelet.table())) {
            unexplained.add(new Difference(-1, "table", "java=" + java.table() + " kubelet=" + kubelet.table()));
        }
        int compared = 0;
        for (int op = 0; op < in.ops().size(); op++) {
            compared++;
            boolean stop = false;
            for (Difference d :
                    differences(op, java.ops().get(op), kubelet.ops().get(op))) {
                Optional<MemoryKnownDifferences.Entry> entry =
                        MemoryKnownDifferences.explaining(in, op, d.field(), java, kubelet);
                if (entry.isPresent()) {
                    allowed.add(entry.get().name());
                    stop |= entry.get().stopsComparison();
                } else {
                    unexplained.add(d);
                }
            }
            if (stop) {
                break;
            }
        }
        return new Verdict(unexplained, allowed, compared);
    }

    static List<Difference> differences(int op, MemoryAnswer.OpResult java, MemoryAnswer.OpResult kubelet) {
        List<Difference> out = new ArrayList<>();
        if (!Objects.equals(java.hints(), kubelet.hints())) {
            out.add(new Difference(op, "hints", "java=" + java.hints() + " kubelet=" + kubelet.hints()));
        }
        if (!Objects.equals(java.blocks(), kubelet.blocks())) {
            out.add(new Difference(op, "blocks", "java=" + java.blocks() + " kubelet=" + kubelet.blocks()));
        }
        if ((java.error() == null) != (kubelet.error() == null)) {
            out.add(new Difference(op, "error", "java=" + java.error() + " kubelet=" + kubelet.error()));
        }
        if (!Objects.equals(java.table(), kubelet.table())) {
            out.add(new Difference(op, "table", tableDifference(java, kubelet)));
        }
        return out;
    }

    private static String tableDifference(MemoryAnswer.OpResult java, MemoryAnswer.OpResult kubelet) {
        List<String> rows = new ArrayList<>();
        int n = Math.max(java.table().size(), kubelet.table().size());
        for (int i = 0; i < n; i++) {
            MemoryAnswer.NodeRow j = i < java.table().size() ? java.table().get(i) : null;
            MemoryAnswer.NodeRow k =
                    i < kubelet.table().size() ? kubelet.table().get(i) : null;
            if (!Objects.equals(j, k)) {
                rows.add("java " + j + " kubelet " + k);
            }
        }
        return String.join("; ", rows);
    }
}
