package io.podnuma.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DemoOptionsTest {
    @Test
    void keepRunningIsOffUnlessAsked() {
        assertThat(DemoOptions.parse(List.of())).isEqualTo(new DemoOptions(false));
        assertThat(DemoOptions.parse(List.of("--keep-running"))).isEqualTo(new DemoOptions(true));
    }

    @Test
    void anUnknownArgumentIsRefusedWithTheUsage() {
        assertThatThrownBy(() -> DemoOptions.parse(List.of("--keep-runing")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown argument '--keep-runing'")
                .hasMessageContaining("usage: scripts/demo [--keep-running]");
    }
}
