package io.podnuma.agent.engine.cpuset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CpuSetTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0-3,8,10-11 | 0-3,8,10-11 | 7",
                "3,2,1,0     | 0-3         | 4",
                "' 0-1 '     | 0-1         | 2",
                "5           | 5           | 1",
                "63-65       | 63-65       | 3",
                "0-2,1-4     | 0-4         | 5",
                "''          | ''          | 0",
                "0,2,4       | 0,2,4       | 3",
                "127,128     | 127-128     | 2",
            })
    void parsesAndFormatsLinuxListSyntax(String text, String formatted, int size) {
        CpuSet s = CpuSet.parse(text);
        assertThat(s.toString()).isEqualTo(formatted);
        assertThat(s.size()).isEqualTo(size);
        assertThat(CpuSet.parse(s.toString())).isEqualTo(s);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0-3,x     | element 2 \"x\" is not an id or range of ids",
                "0,,1      | element 2 \"\" is an empty element",
                "5-3       | element 1 \"5-3\" is a range whose end 3 is below its start 5",
                "1-        | element 1 \"1-\" is not an id",
                "-1        | element 1 \"-1\" is not an id",
                "70000     | element 1 \"70000\" is an id above the maximum 65535",
                "0-3,      | element 2 \"\" is an empty element",
            })
    void rejectsBadListsNamingTheToken(String text, String message) {
        assertThatThrownBy(() -> CpuSet.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasMessageContaining("expected comma-separated ids and ranges");
    }

    @Test
    void setAlgebra() {
        CpuSet a = CpuSet.parse("0-7");
        CpuSet b = CpuSet.parse("4-11");
        assertThat(a.union(b)).hasToString("0-11");
        assertThat(a.intersection(b)).hasToString("4-7");
        assertThat(a.difference(b)).hasToString("0-3");
        assertThat(b.difference(a)).hasToString("8-11");
        assertThat(a.intersectionSize(b)).isEqualTo(4);
        assertThat(a.intersects(CpuSet.of(100))).isFalse();
        assertThat(CpuSet.of(4, 5).isSubsetOf(a)).isTrue();
        assertThat(CpuSet.of(4, 100).isSubsetOf(a)).isFalse();
        assertThat(CpuSet.empty().isSubsetOf(a)).isTrue();
        assertThat(a.first()).isZero();
        assertThat(b.last()).isEqualTo(11);
        assertThat(CpuSet.parse("3,9,64,200").toArray()).containsExactly(3, 9, 64, 200);
        assertThat(CpuSet.parse("3,9,64,200").lowest(2)).hasToString("3,9");
        assertThat(CpuSet.parse("3,9,64,200").nextId(10)).isEqualTo(64);
        assertThat(CpuSet.parse("3,9").nextId(10)).isEqualTo(-1);
    }

    @Test
    void equalityIgnoresHowTheSetWasBuilt() {
        CpuSet viaDifference = CpuSet.parse("0-200").difference(CpuSet.parse("100-200"));
        assertThat(viaDifference).isEqualTo(CpuSet.range(0, 99)).hasSameHashCodeAs(CpuSet.range(0, 99));
        assertThat(CpuSet.parse("64").difference(CpuSet.of(64))).isEqualTo(CpuSet.empty());
    }

    @Test
    void ordersLexicographicallyByIds() {
        assertThat(CpuSet.of(0, 5).compareTo(CpuSet.of(1))).isNegative();
        assertThat(CpuSet.of(1).compareTo(CpuSet.of(1, 2))).isNegative();
        assertThat(CpuSet.of(2).compareTo(CpuSet.of(2))).isZero();
    }

    @Test
    void outOfRangeIdsAreRefused() {
        assertThatThrownBy(() -> CpuSet.of(-1)).hasMessageContaining("CPU id -1 is out of range: allowed 0..65535");
        assertThatThrownBy(() -> CpuSet.range(0, 70000)).hasMessageContaining("70000");
    }

    @Test
    void agreesWithJavaBitSetOnRandomSets() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int round = 0; round < 2000; round++) {
            BitSet x = randomBits(rnd);
            BitSet y = randomBits(rnd);
            CpuSet a = fromBits(x);
            CpuSet b = fromBits(y);
            BitSet and = (BitSet) x.clone();
            and.and(y);
            BitSet or = (BitSet) x.clone();
            or.or(y);
            BitSet andNot = (BitSet) x.clone();
            andNot.andNot(y);
            String msg = "seed " + seed + " round " + round + " a=" + a + " b=" + b;
            assertThat(a.intersection(b)).as(msg).isEqualTo(fromBits(and));
            assertThat(a.union(b)).as(msg).isEqualTo(fromBits(or));
            assertThat(a.difference(b)).as(msg).isEqualTo(fromBits(andNot));
            assertThat(a.size()).as(msg).isEqualTo(x.cardinality());
            assertThat(CpuSet.parse(a.toString())).as(msg).isEqualTo(a);
        }
    }

    private static BitSet randomBits(Random rnd) {
        BitSet b = new BitSet();
        int n = rnd.nextInt(40);
        int max = 1 + rnd.nextInt(300);
        for (int i = 0; i < n; i++) {
            int from = rnd.nextInt(max);
            b.set(from, from + 1 + rnd.nextInt(4));
        }
        return b;
    }

    private static CpuSet fromBits(BitSet b) {
        return CpuSet.of(b.stream().toArray());
    }
}
