package io.podnuma.bench;

import java.util.List;

/**
 * A bench's figures as one aligned Markdown table: measure, figure, the baseline of the same run, their ratio, the
 * budget it is read against.
 */
public final class FigureTable {

    /** One measure; empty cells are written empty. */
    public record Row(String measure, String figure, String baseline, String ratio, String budget) {
        public Row withFigure(String f) {
            return new Row(measure, f, baseline, ratio, budget);
        }

        String[] cells() {
            return new String[] {measure, figure, baseline, ratio, budget};
        }
    }

    private FigureTable() {}

    /** The table, each column as wide as its widest cell; {@code subject} heads the figures' column. */
    public static String render(String subject, List<Row> rows) {
        String[] head = {"Measure", subject, "Baseline (same run)", "Ratio", "Budget"};
        return render(head, rows.stream().map(Row::cells).toList());
    }

    /** Any columns: {@code head} and each row the same number of cells. */
    public static String render(String[] head, List<String[]> rows) {
        int[] w = new int[head.length];
        for (int i = 0; i < head.length; i++) {
            w[i] = head[i].length();
        }
        for (String[] c : rows) {
            if (c.length != head.length) {
                throw new IllegalArgumentException(c.length + " cells in a row of a table of " + head.length);
            }
            for (int i = 0; i < c.length; i++) {
                w[i] = Math.max(w[i], c[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, head, w);
        String[] dashes = new String[w.length];
        for (int i = 0; i < w.length; i++) {
            dashes[i] = "-".repeat(w[i]);
        }
        line(out, dashes, w);
        rows.forEach(row -> line(out, row, w));
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] w) {
        out.append('|');
        for (int i = 0; i < cells.length; i++) {
            out.append(' ')
                    .append(cells[i])
                    .append(" ".repeat(w[i] - cells[i].length()))
                    .append(" |");
        }
        out.append('\n');
    }
}
