package io.podnuma.bench.plot;

import io.podnuma.agent.engine.picture.Svg;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * The bench's one kind of plot: horizontal bars, one group per category, one bar per series, on a linear or a
 * logarithmic axis, with reference lines (budgets) and a legend; rendered as a self-contained SVG document.
 *
 * <p>Each bar is a {@code <rect class="bar">} carrying {@code data-series}, {@code data-category} and
 * {@code data-value}; each axis tick a {@code <line class="tick">} carrying {@code data-value}; each reference a
 * {@code <line class="reference">}: what the tests read back.
 *
 * @param title the plot's heading (and the document's {@code <title>})
 * @param note a line under the title: where the figures come from
 * @param axis the axis's label (its unit)
 * @param log a logarithmic axis (decades), else linear from zero
 * @param tick how a value on the axis is written
 * @param categories the groups, top to bottom
 * @param series the bars of each group, each series' bars in category order
 * @param references vertical lines across the plot (budgets)
 */
public record BarChart(
        String title,
        String note,
        String axis,
        boolean log,
        DoubleFunction<String> tick,
        List<String> categories,
        List<Series> series,
        List<Reference> references) {

    /** A bar; a value of {@code NaN} draws no bar, only its label (e.g. "did not finish"). */
    public record Bar(double value, String label, boolean estimate) {
        public static Bar of(double value, String label) {
            return new Bar(value, label, false);
        }

        public static Bar none(String label) {
            return new Bar(Double.NaN, label, false);
        }
    }

    public record Series(String name, String colour, List<Bar> bars) {
        public Series {
            bars = List.copyOf(bars);
        }
    }

    public record Reference(double value, String label) {}

    private static final double MARGIN = 16;
    private static final double PLOT_W = 520;
    private static final double BAR_H = 14;
    private static final double BAR_GAP = 3;
    private static final double GROUP_GAP = 14;
    private static final double CHAR_W = 6.4;
    private static final double VALUE_ROOM = 130;
    /** The room a tick's label needs on the axis. */
    private static final double TICK_ROOM = 64;

    private static final String CSS = "text{font-family:sans-serif;fill:#222;font-size:11px}"
            + ".t{font-size:15px;font-weight:bold}.s{fill:#555}.c{text-anchor:end}.tl{text-anchor:middle;fill:#444}"
            + "line.grid{stroke:#e4e4e4}line.axis{stroke:#444}"
            + "line.reference{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 3}"
            + ".rl{fill:#c0392b}.estimate{fill-opacity:.45;stroke-dasharray:3 2}";

    public BarChart {
        categories = List.copyOf(categories);
        series = List.copyOf(series);
        references = List.copyOf(references);
        for (Series s : series) {
            if (s.bars().size() != categories.size()) {
                throw new IllegalArgumentException("series " + s.name() + " has "
                        + s.bars().size() + " bars for " + categories.size() + " categories");
            }
            for (Bar b : s.bars()) {
                if (log && b.value() <= 0) {
                    throw new IllegalArgumentException("series " + s.name() + ": " + b.value()
                            + " cannot be drawn on a logarithmic axis; give NaN for no bar");
                }
            }
        }
    }

    /** The axis: where a value lands, and the ticks. */
    record Scale(boolean log, double lo, double hi) {
        static Scale of(boolean log, List<Double> values) {
            double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(1);
            double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(1);
            if (log) {
                double lo = Math.pow(10, Math.floor(Math.log10(min)));
                double hi = Math.pow(10, Math.ceil(Math.log10(max)));
                return new Scale(true, lo, hi > lo ? hi : lo * 10);
            }
            double step = step(max);
            return new Scale(false, 0, Math.max(step, Math.ceil(max / step) * step));
        }

        /** A 1, 2 or 5 times a power of ten that cuts {@code [0, max]} into 4 to 10 steps. */
        static double step(double max) {
            if (max <= 0) {
                return 1;
            }
            double p = Math.pow(10, Math.floor(Math.log10(max)));
            for (double m : new double[] {0.1, 0.2, 0.5, 1}) {
                if (max / (m * p) <= 10) {
                    return m * p;
                }
            }
            return p;
        }

        /** The fraction of the axis's length from its start to {@code v}. */
        double at(double v) {
            return log ? Math.log10(v / lo) / Math.log10(hi / lo) : (v - lo) / (hi - lo);
        }

        List<Double> ticks() {
            List<Double> out = new ArrayList<>();
            if (log) {
                int decades = (int) Math.round(Math.log10(hi / lo));
                for (int k = 0; k <= decades; k++) {
                    out.add(lo * Math.pow(10, k));
                }
            } else {
                double step = step(hi);
                int n = (int) Math.round(hi / step);
                for (int k = 0; k <= n; k++) {
                    out.add(k * step);
                }
            }
            return out;
        }
    }

    public String svg() {
        List<Double> values = new ArrayList<>();
        series.forEach(
                s -> s.bars().stream().filter(b -> !Double.isNaN(b.value())).forEach(b -> values.add(b.value())));
        references.forEach(r -> values.add(r.value()));
        Scale scale = Scale.of(log, values);
        List<Double> ticks = scale.ticks();
        double plotW = Math.max(PLOT_W, TICK_ROOM * (ticks.size() - 1) / 2);
        double spacing = plotW / Math.max(1, ticks.size() - 1);
        // every tick gets its grid line, every n-th its label, so that the labels keep apart
        int labelEvery = (int) Math.ceil(TICK_ROOM / spacing);

        double labelW =
                categories.stream().mapToDouble(c -> c.length() * CHAR_W).max().orElse(0) + 12;
        double x0 = MARGIN + labelW;
        double groupH = series.size() * (BAR_H + BAR_GAP) - BAR_GAP;
        double plotH = categories.size() * (groupH + GROUP_GAP) + GROUP_GAP;
        double width = Math.max(
                x0 + plotW + VALUE_ROOM + MARGIN, MARGIN * 2 + Math.max(title.length() * 8.5, note.length() * CHAR_W));
        Svg svg = new Svg();
        text(svg, "t", title, MARGIN, MARGIN + 12);
        text(svg, "s", note, MARGIN, MARGIN + 28);
        // room above the plot for the references' labels, staggered so that neighbours do not overlap
        double top = legend(svg, MARGIN + 48, width) + 14 + 13 * references.size();

        svg.open("g", "class", "scale");
        for (int i = 0; i < ticks.size(); i++) {
            double t = ticks.get(i);
            double x = x0 + scale.at(t) * plotW;
            line(svg, "tick grid", t, x, top, x, top + plotH);
            if (i % labelEvery == 0) {
                text(svg, "tl", tick.apply(t), x, top + plotH + 14);
            }
        }
        line(svg, "axis", Double.NaN, x0, top + plotH, x0 + plotW, top + plotH);
        text(svg, "tl", axis + (log ? " (log scale)" : ""), x0 + plotW / 2, top + plotH + 30);
        svg.close();

        for (int c = 0; c < categories.size(); c++) {
            String category = categories.get(c);
            double gy = top + GROUP_GAP + c * (groupH + GROUP_GAP);
            svg.open("g", "class", "category", "data-category", category);
            text(svg, "c", category, x0 - 8, gy + groupH / 2 + 4);
            for (int s = 0; s < series.size(); s++) {
                Series se = series.get(s);
                Bar b = se.bars().get(c);
                double y = gy + s * (BAR_H + BAR_GAP);
                double end = x0;
                if (!Double.isNaN(b.value())) {
                    end = x0 + Math.max(0, scale.at(b.value())) * plotW;
                    svg.empty(
                            "rect",
                            "class",
                            b.estimate() ? "bar estimate" : "bar",
                            "data-series",
                            se.name(),
                            "data-category",
                            category,
                            "data-value",
                            Double.toString(b.value()),
                            "x",
                            Svg.num(x0),
                            "y",
                            Svg.num(y),
                            "width",
                            Svg.num(end - x0),
                            "height",
                            Svg.num(BAR_H),
                            "fill",
                            se.colour(),
                            "stroke",
                            se.colour());
                }
                text(svg, "v", b.label(), end + 4, y + BAR_H - 3);
            }
            svg.close();
        }
        for (int i = 0; i < references.size(); i++) {
            Reference r = references.get(i);
            double x = x0 + scale.at(r.value()) * plotW;
            double labelY = top - 6 - 13 * (references.size() - 1 - i);
            line(svg, "reference", r.value(), x, labelY + 2, x, top + plotH);
            text(svg, "rl", r.label(), x + 3, labelY);
        }
        return svg.document(width, top + plotH + 40 + MARGIN, title, CSS);
    }

    private static void text(Svg svg, String cls, String text, double x, double y) {
        svg.element("text", text, "class", cls, "x", Svg.num(x), "y", Svg.num(y));
    }

    /** A line; {@code value} (what the line stands for on the axis) as {@code data-value} unless NaN. */
    private static void line(Svg svg, String cls, double value, double x1, double y1, double x2, double y2) {
        List<String> attrs = new ArrayList<>(List.of("class", cls));
        if (!Double.isNaN(value)) {
            attrs.addAll(List.of("data-value", Double.toString(value)));
        }
        attrs.addAll(List.of("x1", Svg.num(x1), "y1", Svg.num(y1), "x2", Svg.num(x2), "y2", Svg.num(y2)));
        svg.empty("line", attrs.toArray(String[]::new));
    }

    /** The series' swatches, wrapped to the width; returns the baseline of the last line. */
    private double legend(Svg svg, double y, double width) {
        svg.open("g", "class", "legend");
        double x = MARGIN;
        for (Series s : series) {
            double w = 20 + s.name().length() * CHAR_W + 14;
            if (x + w > width - MARGIN && x > MARGIN) {
                x = MARGIN;
                y += 16;
            }
            svg.empty("rect", "x", Svg.num(x), "y", Svg.num(y - 10), "width", "12", "height", "12", "fill", s.colour());
            svg.element("text", s.name(), "x", Svg.num(x + 17), "y", Svg.num(y));
            x += w;
        }
        svg.close();
        return y;
    }
}
