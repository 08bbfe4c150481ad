package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JvmFlagsTest {
    @Test
    void oneFlagALineWithoutCommentsOrBlankLines() {
        JvmFlags flags = JvmFlags.parse("""
                # a comment
                -XX:+UseSerialGC

                  -Xmx64m   # trailing comment
                --enable-native-access=ALL-UNNAMED
                """);
        assertThat(flags.flags()).containsExactly("-XX:+UseSerialGC", "-Xmx64m", "--enable-native-access=ALL-UNNAMED");
    }

    @Test
    void aLineWithTwoFlagsOrNoDashIsRefused() {
        assertThatThrownBy(() -> JvmFlags.parse("-Xms16m -Xmx64m\n")).hasMessageContaining("not one JVM flag");
        assertThatThrownBy(() -> JvmFlags.parse("UseSerialGC\n")).hasMessageContaining("not one JVM flag");
    }
}
