package io.podnuma.bench.operator;

import io.podnuma.bench.FigureTable;
import io.podnuma.bench.FigureTable.Row;
import io.podnuma.bench.operator.ScaleBench.Phase;
import io.podnuma.bench.operator.ScaleBench.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The scale bench's figures as one Markdown table (figure, baseline of the same run, ratio, budget), then notes. */
final class ScaleTable {

    private ScaleTable() {}

    static String render(Result r) {
        StringBuilder out = new StringBuilder(FigureTable.render("podnuma operator", rows(r)));
        out.append('\n');
        for (String note : notes(r)) {
            out.append("- ").append(note).append('\n');
        }
        return out.toString();
    }

    static List<Row> rows(Result r) {
        ScaleBench.Settings s = r.settings();
        List<Row> rows = new ArrayList<>();
        rows.add(new Row(
                "Nodes × policies; JSON per node as sent / as stored",
                "%,d × %d; %s / %s"
                        .formatted(
                                s.nodes(),
                                s.policies(),
                                bytes(r.created().averageSentBytes()),
                                bytes(r.created().storedBytes())),
                "",
                "",
                "real node ~10-15 KB"));
        Phase cold = r.cold();
        rows.add(new Row("Start → every status converged", seconds(cold.converged()), "", "", "full resync < 60 s"));
        rows.add(writesRow("API writes, start → converged", cold));
        rows.add(writesRow("API writes, " + r.settle().name(), r.settle()));
        rows.add(writesRow("API writes, " + r.steady().name(), r.steady()));
        Phase relabel = r.relabel();
        rows.add(new Row(relabel.name() + ": converged", seconds(relabel.converged()), "", "", ""));
        rows.add(writesRow("API writes, " + relabel.name(), relabel));
        Phase spec = r.specChange();
        rows.add(new Row(spec.name() + ": converged", seconds(spec.converged()), "", "", ""));
        rows.add(writesRow("API writes, " + spec.name(), spec));
        Phase resync = r.resync();
        rows.add(new Row(resync.name(), seconds(resync.converged()), "", "", "full resync < 60 s"));
        rows.add(writesRow("API writes, restart / full resync", resync));
        rows.add(rssRow("Operator RSS peak (VmHWM), start → converged", r.coldPeakRssKib(), r.idleJvmRssKib()));
        rows.add(rssRow("Operator RSS after the steady window", r.settledRssKib(), r.idleJvmRssKib()));
        rows.add(rssRow("Operator RSS peak / settled, restarted", r.resyncPeakRssKib(), r.idleJvmRssKib())
                .withFigure(mib(r.resyncPeakRssKib()) + " / " + mib(r.resyncSettledRssKib())));
        rows.add(new Row(
                "Operator CPU, start → converged",
                millicores(r.coldCpu().millicores()) + " over "
                        + seconds(r.coldCpu().window()),
                "",
                "",
                ""));
        rows.add(new Row(
                "Operator CPU, " + r.steady().name(), millicores(r.steadyCpu().millicores()), "", "", ""));
        rows.add(new Row(
                "Operator CPU, restart → reconciled",
                millicores(r.resyncCpu().millicores()) + " over "
                        + seconds(r.resyncCpu().window()),
                "",
                "",
                ""));
        return rows;
    }

    private static Row writesRow(String measure, Phase p) {
        long n = p.writes().total();
        String baseline = p.minimum() > 0 ? "%,d minimum".formatted(p.minimum()) : "";
        String ratio = p.minimum() > 0 ? String.format(Locale.ROOT, "%.2f", n / (double) p.minimum()) : "";
        String budget = p.minimum() > 0 ? "O(changes)" : "0";
        long refused = p.writes().refusedTotal();
        String figure = "%,d".formatted(n) + (refused > 0 ? " (%,d refused)".formatted(refused) : "");
        return new Row(measure, figure, baseline, ratio, budget);
    }

    private static Row rssRow(String measure, long kib, long idleKib) {
        return new Row(
                measure,
                mib(kib),
                "idle JVM " + mib(idleKib),
                String.format(Locale.ROOT, "%.2f", kib / (double) idleKib),
                "< 256 MiB");
    }

    static List<String> notes(Result r) {
        List<String> out = new ArrayList<>();
        out.add("Writes by kind: start → converged: " + r.cold().writes().describe() + ".");
        out.add(r.settle().name() + ": " + r.settle().writes().describe() + "; "
                + r.steady().name() + ": " + r.steady().writes().describe() + ".");
        out.add(r.relabel().name() + ": " + r.relabel().writes().describe() + " ("
                + r.relabel().note() + ").");
        out.add(r.specChange().name() + ": " + r.specChange().writes().describe() + " ("
                + r.specChange().note() + ").");
        out.add("Restart: " + r.resync().writes().describe() + " (" + r.resync().note() + ").");
        out.add("At start, the " + r.cold().note() + "; Events come on top.");
        out.add("Nodes created in " + seconds(Duration.ofMillis(r.created().millis())) + " with "
                + r.settings().parallel() + " requests in flight.");
        out.add("Operator JVM flags: " + String.join(" ", r.settings().jvmFlags()) + ".");
        out.add("Load average (/proc/loadavg) before: " + r.loadBefore() + "; after: " + r.loadAfter() + ".");
        return out;
    }

    static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    static String mib(long kib) {
        return String.format(Locale.ROOT, "%.1f MiB", kib / 1024.0);
    }

    static String bytes(double b) {
        return String.format(Locale.ROOT, "%.1f KB", b / 1000.0);
    }

    static String millicores(double m) {
        return String.format(Locale.ROOT, m < 10 ? "%.2f m" : "%.0f m", m);
    }
}
