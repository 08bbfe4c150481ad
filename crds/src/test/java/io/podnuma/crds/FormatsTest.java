package io.podnuma.crds;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.crds.v1alpha1.Formats;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FormatsTest {

    private static final Pattern CPU_LIST = Pattern.compile(Formats.CPU_LIST_REGEX);
    private static final Pattern CPU_LIST_OR_EMPTY = Pattern.compile(Formats.CPU_LIST_OR_EMPTY_REGEX);
    private static final Pattern DURATION = Pattern.compile(Formats.DURATION_REGEX);
    private static final Pattern PAGE_SIZE = Pattern.compile(Formats.PAGE_SIZE_REGEX);

    @ParameterizedTest
    @ValueSource(strings = {"0", "0-3", "0-3,8,10-11", "0,48,96,144", "9999", "0-1,64-65"})
    void cpuListsTheKernelPrintsAreAccepted(String list) {
        assertThat(CPU_LIST.matcher(list).matches()).isTrue();
        assertThat(CPU_LIST_OR_EMPTY.matcher(list).matches()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " 0", "0-", "-3", "0--3", ",1", "1,", "0;1", "0 1", "a", "0-3,,4", "10000", "0x1"})
    void malformedCpuListsAreRejected(String list) {
        assertThat(CPU_LIST.matcher(list).matches()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0-3"})
    void emptyIsOnlyAllowedWhereSaid(String list) {
        assertThat(CPU_LIST_OR_EMPTY.matcher("").matches()).isTrue();
        assertThat(CPU_LIST.matcher("").matches()).isFalse();
        assertThat(CPU_LIST_OR_EMPTY.matcher(list).matches()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"10s", "1m30s", "1.5h", "500ms", "100us", "1h0m0s"})
    void goDurationsAreAccepted(String duration) {
        assertThat(DURATION.matcher(duration).matches()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "10", "-1s", "1d", "s", "1 s", "PT10S"})
    void nonDurationsAreRejected(String duration) {
        assertThat(DURATION.matcher(duration).matches()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2Mi", "1Gi", "64Ki"})
    void hugePageSizesAreAccepted(String size) {
        assertThat(PAGE_SIZE.matcher(size).matches()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2M", "0Mi", "1GB", "Gi"})
    void otherPageSizesAreRejected(String size) {
        assertThat(PAGE_SIZE.matcher(size).matches()).isFalse();
    }
}
