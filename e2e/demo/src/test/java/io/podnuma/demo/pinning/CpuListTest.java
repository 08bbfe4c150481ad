package io.podnuma.demo.pinning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CpuListTest {

    @Test
    void parsesAndPrintsTheLinuxListSyntax() {
        CpuList cpus = CpuList.parse(" 0-3,8,10-11\n");
        assertThat(cpus.ids()).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(cpus).hasToString("0-3,8,10-11");
        assertThat(CpuList.parse("")).isEqualTo(CpuList.of()).hasToString("");
        assertThat(CpuList.parse("1,0,2")).isEqualTo(CpuList.parse("0-2"));
    }

    @Test
    void minusLeavesWhatTheOtherDoesNotHold() {
        assertThat(CpuList.parse("0-3").minus(CpuList.of(0, 2))).hasToString("1,3");
        assertThat(CpuList.of(0).minus(CpuList.of(0)).isEmpty()).isTrue();
    }

    @Test
    void badTextNamesThePart() {
        assertThatThrownBy(() -> CpuList.parse("0-1,x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"x\"");
        assertThatThrownBy(() -> CpuList.parse("3-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"3-1\"");
    }
}
