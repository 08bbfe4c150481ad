package io.podnuma.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Lines up podnuma's and the kubelet's figures per benchmark id as a Markdown table. A podnuma row whose id
 * carries a variant in brackets (e.g. {@code "merge/x [pruned merger alone]"}) is compared with the kubelet's
 * row for the plain id.
 */
public final class ComparisonTable {

    private ComparisonTable() {}

    public static String format(List<Measurement> podnuma, List<Measurement> kubelet) {
        Map<String, Measurement> kubeletById = new LinkedHashMap<>();
        kubelet.forEach(m -> kubeletById.put(m.id(), m));
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "benchmark",
            "podnuma",
            "kubelet",
            "ratio p/k",
            "podnuma alloc/op",
            "kubelet alloc/op",
            "same answer",
            "note"
        });
        for (Measurement p : podnuma) {
            Measurement k = kubeletById.get(baseId(p.id()));
            rows.add(new String[] {
                p.id(),
                time(p) + (Double.isNaN(p.errorNanos()) ? "" : " ± " + duration(p.errorNanos())),
                k == null ? "not run" : time(k),
                k == null ? "" : ratio(p, k),
                bytes(p.bytesPerOp()),
                k == null ? "" : (k.extrapolated() ? "~" : "") + bytes(k.bytesPerOp()),
                k == null || k.sameAnswer() == null ? "" : k.sameAnswer() ? "yes" : "NO",
                k == null ? "" : k.note()
            });
        }
        return render(rows);
    }

    static String baseId(String id) {
        int bracket = id.indexOf(" [");
        return bracket < 0 ? id : id.substring(0, bracket);
    }

    private static String time(Measurement m) {
        if (m.hasTime()) {
            return (m.extrapolated() ? "~" : "") + duration(m.nanosPerOp());
        }
        return Measurement.TIMEOUT.equals(m.status()) ? "did not finish" : m.status();
    }

    private static String ratio(Measurement p, Measurement k) {
        if (!p.hasTime() || !k.hasTime()) {
            return "";
        }
        double r = p.nanosPerOp() / k.nanosPerOp();
        String text = r >= 0.01 ? String.format(Locale.ROOT, "%.2f", r) : String.format(Locale.ROOT, "%.1e", r);
        return (k.extrapolated() ? "~" : "") + text;
    }

    static String duration(double nanos) {
        if (Double.isNaN(nanos)) {
            return "";
        }
        double abs = Math.abs(nanos);
        if (abs < 1e3) {
            return String.format(Locale.ROOT, "%.0f ns", nanos);
        }
        if (abs < 1e6) {
            return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
        }
        if (abs < 1e9) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        if (abs < 60e9) {
            return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
        }
        if (abs < 3600e9) {
            return String.format(Locale.ROOT, "%.1f min", nanos / 60e9);
        }
        if (abs < 86400e9 * 365) {
            return String.format(Locale.ROOT, "%.1f h", nanos / 3600e9);
        }
        return String.format(Locale.ROOT, "%.1f years", nanos / (86400e9 * 365));
    }

    static String bytes(double bytes) {
        if (Double.isNaN(bytes)) {
            return "";
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes;
        int u = 0;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? String.format(Locale.ROOT, "%.0f B", v) : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static String render(List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            appendRow(sb, rows.get(r), width);
            if (r == 0) {
                String[] rule = new String[columns];
                for (int c = 0; c < columns; c++) {
                    rule[c] = "-".repeat(Math.max(3, width[c]));
                }
                appendRow(sb, rule, width);
            }
        }
        return sb.toString();
    }

    private static void appendRow(StringBuilder sb, String[] row, int[] width) {
        sb.append('|');
        for (int c = 0; c < row.length; c++) {
            sb.append(' ')
                    .append(row[c])
                    .append(" ".repeat(width[c] - row[c].length()))
                    .append(" |");
        }
        sb.append('\n');
    }
}
