package io.podnuma.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NriSettingsTest {

    private static final Path SOCKET = Path.of("/var/run/nri/nri.sock");

    @Test
    void theRuntimesIdentityRulesHoldForABuiltValueToo() {
        assertThat(new NriSettings(SOCKET, "a.b_c+d-9", "00").pluginIndex()).isEqualTo("00");
        assertThat(new NriSettings(SOCKET, "podnuma", "99").pluginName()).isEqualTo("podnuma");
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(Path.of("nri.sock"), "podnuma", "40", "NRI socket nri.sock: allowed an absolute path"),
                Arguments.of(
                        SOCKET,
                        "",
                        "40",
                        "NRI plugin name \"\": allowed letters, digits, '_', '.', '+' and '-' (the runtime refuses any"
                                + " other name), e.g. podnuma"),
                Arguments.of(
                        SOCKET,
                        "pod numa",
                        "40",
                        "NRI plugin name \"pod numa\": allowed letters, digits, '_', '.', '+' and '-' (the runtime"
                                + " refuses any other name), e.g. podnuma"),
                Arguments.of(
                        SOCKET,
                        "podnuma",
                        "1",
                        "NRI plugin index \"1\": allowed exactly two digits 00 to 99, quoted (lower runs first;"
                                + " nri-plugins' resource policies use 90), e.g. \"40\""),
                Arguments.of(
                        SOCKET,
                        "podnuma",
                        "٤٠",
                        "NRI plugin index \"٤٠\": allowed exactly two digits 00 to 99, quoted (lower runs first;"
                                + " nri-plugins' resource policies use 90), e.g. \"40\""));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void aValueTheRuntimeWouldRefuseIsRefusedHere(Path socket, String name, String index, String message) {
        assertThatThrownBy(() -> new NriSettings(socket, name, index))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void pinningModesHaveLowerCaseWireNames() {
        assertThat(Stream.of(PinningMode.values()).map(PinningMode::wireName)).containsExactly("auto", "nri", "cgroup");
        for (PinningMode m : PinningMode.values()) {
            assertThat(PinningMode.parse(m.wireName())).isEqualTo(m);
        }
        assertThatThrownBy(() -> PinningMode.parse("Auto")).hasMessage("allowed auto, nri, cgroup");
    }
}
