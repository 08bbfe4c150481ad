package io.podnuma.e2e.footprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MemoryStatTest {

    /** The shape of a pod cgroup's memory.stat on this kernel (own counters first, then the hierarchy's totals). */
    private static final String POD = """
            cache 0
            rss 0
            rss_huge 0
            shmem 0
            mapped_file 0
            inactive_anon 0
            active_anon 0
            inactive_file 0
            active_file 0
            hierarchical_memory_limit 536870912
            total_cache 44158976
            total_rss 101535744
            total_rss_huge 0
            total_shmem 0
            total_mapped_file 40419328
            total_inactive_anon 0
            total_active_anon 101367808
            total_inactive_file 30670848
            total_active_file 13488128
            total_unevictable 0
            """;

    @Test
    void theHierarchysTotalsAreRead() {
        MemoryStat stat = MemoryStat.parse(POD);
        assertThat(stat.totalRss()).isEqualTo(101_535_744L);
        assertThat(stat.totalCache()).isEqualTo(44_158_976L);
        assertThat(stat.get("hierarchical_memory_limit")).isEqualTo(536_870_912L);
        assertThat(stat.get("rss")).as("the pod cgroup's own tasks: none").isZero();
    }

    @ParameterizedTest(name = "usage {0} → working set {1}")
    @CsvSource({
        "150000000, 119329152", // usage less total_inactive_file
        "30670848, 0", // all of it inactive file pages
        "1000, 0", // fewer than the inactive pages (read at another moment): the kubelet's floor
    })
    void theWorkingSetIsUsageLessInactiveFilePages(long usage, long workingSet) {
        assertThat(MemoryStat.parse(POD).workingSet(usage)).isEqualTo(workingSet);
    }

    @Test
    void aMissingKeyIsNamed() {
        assertThatThrownBy(() -> MemoryStat.parse("rss 1\n").totalCache())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("total_cache")
                .hasMessageContaining("rss");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"total_rss", "total_rss -1", "total_rss 12 kB", "total rss 12x"})
    void aLineThatIsNotKeyAndBytesIsRefused(String line) {
        assertThatThrownBy(() -> MemoryStat.parse("cache 0\n" + line + "\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(line);
    }
}
