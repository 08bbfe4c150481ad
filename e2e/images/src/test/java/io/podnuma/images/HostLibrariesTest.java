package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.images.HostLibraries.LddLine;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HostLibrariesTest {
    @Test
    void lddLinesAreALibraryAtAPathTheLoaderOrOneNotFound() {
        assertThat(LddLine.parse("\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f7627d3e000)"))
                .isEqualTo(new LddLine.Resolved(Path.of("/lib/x86_64-linux-gnu/libc.so.6")));
        assertThat(LddLine.parse("\t/lib64/ld-linux-x86-64.so.2 (0x00007f7629859000)"))
                .isEqualTo(new LddLine.Resolved(Path.of("/lib64/ld-linux-x86-64.so.2")));
        assertThat(LddLine.parse("\tlibjli.so => /usr/lib/jvm/jdk/bin/../lib/libjli.so (0x00007f81d8536000)"))
                .isEqualTo(new LddLine.Resolved(Path.of("/usr/lib/jvm/jdk/lib/libjli.so")));
        assertThat(LddLine.parse("\tlibjvm.so => not found")).isEqualTo(new LddLine.NotFound("libjvm.so"));
        assertThat(LddLine.parse("\tlinux-vdso.so.1 (0x00007f7629857000)")).isInstanceOf(LddLine.Other.class);
        assertThat(LddLine.parse("\tnot a dynamic executable")).isInstanceOf(LddLine.Other.class);
    }
}
