package io.podnuma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.bench.agent.BudgetFigures;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BudgetTableTest {

    private static BudgetFigures figures(long rssKib, long listP99) {
        return new BudgetFigures(
                "-XX:+UseSerialGC",
                rssKib,
                36 * 1024,
                rssKib - 30 * 1024,
                20 * 1024,
                3.2,
                0.2,
                1_500_000_000L,
                1_400_000_000L,
                2_100_000_000L,
                listP99,
                600_000,
                40_000_000,
                20_000_000,
                30_000_000,
                15_000_000);
    }

    @Test
    void eachBudgetBesideItsBaselineWithEveryRuntimeAndWhetherItIsMet() {
        String table = BudgetTable.render(
                List.of(
                        new BudgetTable.Run("JIT", Optional.of(figures(130 * 1024, 2_000_000))),
                        new BudgetTable.Run("AOT", Optional.of(figures(90 * 1024, 800_000))),
                        new BudgetTable.Run("CDS", Optional.empty())),
                List.of(
                        new Measurement(BudgetTable.MERGE, Measurement.MEASURED, 4_000_000, 1, 1024, null, ""),
                        new Measurement(BudgetTable.MERGE_COMPACT, Measurement.MEASURED, 2_500, 1, 1024, null, ""),
                        new Measurement(BudgetTable.MERGE_BUILT, Measurement.MEASURED, 700_000, 1, 1024, null, "")),
                Optional.of(new Measurement(BudgetTable.MERGE, Measurement.EXTRAPOLATED, 3.6e15, 0, 0, null, "")));

        assertThat(table.lines().findFirst().orElseThrow())
                .contains("JIT (ratio)", "AOT (ratio)", "CDS (ratio)", "Met JIT / AOT / CDS");
        assertThat(row(table, "Agent RSS"))
                .contains("< 96 MiB", "130.0 MiB (3.61)", "90.0 MiB (2.50)", "not run")
                .contains("36.0 MiB / 36.0 MiB / – idle JVM", "no / yes / –");
        assertThat(row(table, "  its anonymous part"))
                .contains("< 96 MiB", "100.0 MiB (5.00)", "60.0 MiB (3.00)", "20.0 MiB / 20.0 MiB / – idle JVM")
                .contains("no / yes / –");
        assertThat(row(table, "PodResources List p99"))
                .contains("2.00 ms (3.33)", "800.0 µs (1.33)", "600.0 µs / 600.0 µs / – empty List", "no / yes / –");
        assertThat(row(table, "Ready after start")).contains("1.50 s", "yes / yes / –");
        assertThat(row(table, "Ready after a restart")).contains("2.10 s", "no / no / –");
        assertThat(row(table, "Merge")).contains("2.5 µs", "~41.7 days kubelet's Go merge", "| yes ");
        assertThat(row(table, "  the same, the providers")).contains("700.0 µs", "| yes ");
    }

    @Test
    void whatDidNotRunSaysSo() {
        String table =
                BudgetTable.render(List.of(new BudgetTable.Run("JIT", Optional.empty())), List.of(), Optional.empty());
        assertThat(row(table, "Agent RSS")).contains("not run", "– idle JVM");
        assertThat(row(table, "Merge")).contains("not run");
    }

    @Test
    void figuresSurviveTheirFile(@TempDir Path dir) throws Exception {
        BudgetFigures f = figures(123_456, 987_654);
        Path file = dir.resolve("agent.properties");
        f.write(file);
        assertThat(BudgetFigures.read(file)).isEqualTo(f);
    }

    private static String row(String table, String measure) {
        return table.lines()
                .filter(l -> l.startsWith("| " + measure))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row " + measure + " in\n" + table));
    }
}
