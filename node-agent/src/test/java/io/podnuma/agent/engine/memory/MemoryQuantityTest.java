package io.podnuma.agent.engine.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MemoryQuantityTest {

    @ParameterizedTest(name = "{0} = {1} bytes")
    @CsvSource({
        "2Gi, 2147483648",
        "512Mi, 536870912",
        "1G, 1000000000",
        "100M, 100000000",
        "1.5Gi, 1610612736",
        "1e9, 1000000000",
        "1E, 1000000000000000000",
        "4096, 4096",
        "0, 0",
        "1k, 1000",
        "1Ki, 1024",
        "+3Ti, 3298534883328",
        ".5Ki, 512",
        "1Ei, 1152921504606846976",
        "' 64Mi ', 67108864"
    })
    void parsesKubernetesQuantitiesToBytes(String text, long bytes) {
        assertThat(MemoryQuantity.parseBytes(text)).isEqualTo(bytes);
    }

    @ParameterizedTest(name = "\"{0}\" is rejected: {1}")
    @CsvSource({
        "'', it is empty",
        "Gi, does not start with a number",
        "-1Gi, cannot be negative",
        "100m, not a whole number of bytes",
        "1.5, not a whole number of bytes",
        "1Gb, unknown suffix \"Gb\"",
        "1.2.3Mi, is not a number",
        "8Ei, exceeds the largest supported size",
        "1e99, exponent 99 is out of range"
    })
    void rejectsBadQuantitiesSayingWhy(String text, String why) {
        assertThatThrownBy(() -> MemoryQuantity.parseBytes("resources.requests.memory", text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("resources.requests.memory \"" + text + "\" is not a valid memory quantity")
                .hasMessageContaining(why);
    }

    @Test
    void formatsWithTheLargestExactBinarySuffix() {
        assertThat(MemoryQuantity.format(2147483648L)).isEqualTo("2Gi");
        assertThat(MemoryQuantity.format(3072)).isEqualTo("3Ki");
        assertThat(MemoryQuantity.format(1536)).isEqualTo("1536");
        assertThat(MemoryQuantity.format(1000000000)).isEqualTo("1000000000");
        assertThat(MemoryQuantity.format(0)).isEqualTo("0");
        assertThat(MemoryQuantity.parseBytes(MemoryQuantity.format(1610612736L)))
                .isEqualTo(1610612736L);
    }

    @Test
    void resourceNamesAreCanonical() {
        assertThat(MemoryResource.parse("memory")).isEqualTo(MemoryResource.MEMORY);
        assertThat(MemoryResource.parse("hugepages-2Mi").pageSizeBytes()).isEqualTo(2L << 20);
        assertThat(MemoryResource.parse("hugepages-2048Ki").resourceName()).isEqualTo("hugepages-2Mi");
        assertThat(MemoryResource.parse("hugepages-1Gi")).isEqualTo(MemoryResource.hugepages(1L << 30));
        assertThat(MemoryResource.parse("hugepages-1Gi").compareTo(MemoryResource.MEMORY))
                .isPositive();
        assertThatThrownBy(() -> MemoryResource.parse("cpu"))
                .hasMessageContaining("\"cpu\" is not a memory resource")
                .hasMessageContaining("hugepages-<size>");
        assertThatThrownBy(() -> MemoryResource.parse("hugepages-0")).hasMessageContaining("zero huge page size");
        assertThatThrownBy(() -> MemoryResource.parse("hugepages-")).hasMessageContaining("it is empty");
    }
}
