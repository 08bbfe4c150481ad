package io.podnuma.bench.plot;

import static io.podnuma.testkit.svg.SvgDocument.number;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.podnuma.bench.plot.BarChart.Bar;
import io.podnuma.bench.plot.BarChart.Reference;
import io.podnuma.bench.plot.BarChart.Series;
import io.podnuma.testkit.svg.SvgDocument;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class BarChartTest {

    private static BarChart chart(boolean log, List<Series> series, List<Reference> refs) {
        return new BarChart(
                "A <title> & more", "note", "axis", log, v -> Double.toString(v), List.of("x", "y"), series, refs);
    }

    private static Element bar(SvgDocument svg, String series, String category) {
        return svg.withClass("rect", "bar").stream()
                .filter(e -> e.getAttribute("data-series").equals(series)
                        && e.getAttribute("data-category").equals(category))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no bar " + series + "/" + category));
    }

    private static double end(Element bar) {
        return number(bar, "x") + number(bar, "width");
    }

    private static double tickX(SvgDocument svg, double value) {
        return svg.withClass("line", "tick").stream()
                .filter(e -> Double.parseDouble(e.getAttribute("data-value")) == value)
                .findFirst()
                .map(e -> number(e, "x1"))
                .orElseThrow(() -> new AssertionError("no tick at " + value));
    }

    @Test
    void logScaleBarsEndWhereTheirValueSitsAmongTheDecades() {
        SvgDocument svg = SvgDocument.parse(chart(
                        true,
                        List.of(
                                new Series("a", "#123456", List.of(Bar.of(1e3, "1 µs"), Bar.of(3.2e5, "320 µs"))),
                                new Series("b", "#654321", List.of(Bar.of(2e9, "2 s"), Bar.none("did not finish")))),
                        List.of(new Reference(1e6, "budget")))
                .svg());
        // decades 1e3 .. 1e10, evenly spaced
        double d0 = tickX(svg, 1e3);
        double decade = tickX(svg, 1e4) - d0;
        assertThat(decade).isPositive();
        assertThat(tickX(svg, 1e10) - d0).isCloseTo(7 * decade, within(0.1));
        assertThat(end(bar(svg, "a", "x"))).isCloseTo(d0, within(0.01));
        assertThat(end(bar(svg, "a", "y"))).isCloseTo(d0 + Math.log10(320) * decade, within(0.1));
        assertThat(end(bar(svg, "b", "x"))).isCloseTo(d0 + Math.log10(2e6) * decade, within(0.1));
        assertThat(svg.withClass("rect", "bar")).hasSize(3);
        assertThat(svg.texts()).contains("did not finish", "320 µs", "budget", "axis (log scale)");
        Element ref = svg.withClass("line", "reference").get(0);
        assertThat(number(ref, "x1")).isCloseTo(d0 + 3 * decade, within(0.1));
        assertThat(Double.parseDouble(bar(svg, "a", "y").getAttribute("data-value")))
                .isEqualTo(3.2e5);
    }

    @Test
    void linearScaleStartsAtZeroWithRoundTicks() {
        SvgDocument svg = SvgDocument.parse(chart(
                        false,
                        List.of(new Series("a", "#123456", List.of(Bar.of(40, "40"), new Bar(130, "130", true)))),
                        List.of(new Reference(100, "budget")))
                .svg());
        double zero = tickX(svg, 0);
        double hundred = tickX(svg, 100);
        assertThat(svg.withClass("line", "tick").stream().map(e -> Double.parseDouble(e.getAttribute("data-value"))))
                .containsExactly(0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 140.0);
        assertThat(end(bar(svg, "a", "x")) - zero).isCloseTo(0.4 * (hundred - zero), within(0.1));
        assertThat(end(bar(svg, "a", "y")) - zero).isCloseTo(1.3 * (hundred - zero), within(0.1));
        assertThat(bar(svg, "a", "y").getAttribute("class")).isEqualTo("bar estimate");
        assertThat(number(svg.withClass("line", "reference").get(0), "x1")).isCloseTo(hundred, within(0.01));
    }

    @Test
    void namesAreEscapedAndTheDocumentIsSelfContained() {
        String xml = chart(
                        false,
                        List.of(new Series("<a & \"b\">", "#123456", List.of(Bar.of(1, "1 < 2"), Bar.of(2, "2")))),
                        List.of())
                .svg();
        SvgDocument svg = SvgDocument.parse(xml);
        assertThat(svg.title()).isEqualTo("A <title> & more");
        assertThat(svg.texts()).contains("<a & \"b\">", "1 < 2");
        assertThat(bar(svg, "<a & \"b\">", "x")).isNotNull();
        assertThat(xml).doesNotContain("href").doesNotContain("<!DOCTYPE");
    }

    @Test
    void badInputIsRefusedWithTheReason() {
        assertThatThrownBy(() -> chart(
                        true, List.of(new Series("a", "#000000", List.of(Bar.of(0, "0"), Bar.of(1, "1")))), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be drawn on a logarithmic axis");
        assertThatThrownBy(() -> chart(false, List.of(new Series("a", "#000000", List.of(Bar.of(1, "1")))), List.of()))
                .hasMessageContaining("1 bars for 2 categories");
        assertThat(BarChart.Scale.step(7)).isEqualTo(1);
        assertThat(BarChart.Scale.step(130)).isEqualTo(20);
        assertThat(BarChart.Scale.step(0.3)).isCloseTo(0.05, within(1e-12));
    }
}
