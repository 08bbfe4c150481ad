package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CgroupPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"\uD800", "a\uD800", "\uD800b", "\uDC00", "a\uDC00\uD800b", "\uD83D\uD83D\uDE00x"})
    void aSegmentWithAnUnpairedSurrogateIsRefused(String segment) {
        assertThatThrownBy(() -> CgroupPath.root().child("kubepods").child(segment))
                .isInstanceOf(InvalidCgroupNameException.class)
                .hasMessageContaining("unpaired UTF-16 surrogates");
    }

    @Test
    void pairedSurrogatesAreAName() {
        CgroupPath p = CgroupPath.root().child("kubepods").child("\uD83D\uDE00x\uD83D\uDE00");
        assertThat(p.segments()).containsExactly("kubepods", "\uD83D\uDE00x\uD83D\uDE00");
        assertThat(p.in(Path.of("/sys/fs/cgroup")))
                .isEqualTo(Path.of("/sys/fs/cgroup/kubepods/\uD83D\uDE00x\uD83D\uDE00"));
        assertThat(new CgroupPath(List.of("a", "b"))).isEqualTo(CgroupPath.parse("/a//b/"));
    }
}
