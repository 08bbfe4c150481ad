package io.podnuma.testkit.nri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NriJsonTest {

    private static final NriJson RESPONSE =
            new NriJson("{\"adjust\":{\"linux\":{\"resources\":{\"cpu\":{\"cpus\":\"2-3\",\"mems\":\"0\"}}}}}");

    @ParameterizedTest
    @CsvSource({
        "/adjust/linux/resources/cpu/cpus, 2-3, true",
        "/adjust/linux/resources/cpu/mems, 0, true",
        "/adjust/linux/resources/cpu/shares, '', false",
        "/update, '', false",
    })
    void readsFieldsByJsonPointer(String pointer, String text, boolean present) {
        assertThat(RESPONSE.at(pointer)).isEqualTo(text);
        assertThat(RESPONSE.has(pointer)).isEqualTo(present);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"[1,2] | a JSON object", "\"text\" | a JSON object", "{not json | not JSON"})
    void refusesWhatIsNotAMessage(String json, String message) {
        assertThatThrownBy(() -> new NriJson(json)).hasMessageContaining(message);
    }

    @Test
    void convertsToAndFromTypedMessages() {
        Struct typed = Struct.newBuilder()
                .putFields("cpus", Value.newBuilder().setStringValue("2-3").build())
                .build();

        NriJson json = NriJson.of(typed);

        assertThat(json.json()).isEqualTo("{\"cpus\":\"2-3\"}");
        assertThat(json.mergeInto(Struct.newBuilder()).build()).isEqualTo(typed);
    }

    @Test
    void optionsBecomeTheGoFlags() {
        assertThat(HarnessOptions.CONTAINERD_DEFAULTS
                        .withRequestTimeout(Duration.ofMillis(1500))
                        .args())
                .containsExactly(
                        "--request-timeout", "1500ms",
                        "--registration-timeout", "5000ms",
                        "--runtime-name", "containerd",
                        "--runtime-version", "v2.4.2");
        StubOptions slow = StubOptions.answering("2-3", "0").withDelay(Duration.ofSeconds(3));
        assertThat(slow.pluginName()).isEqualTo("90-gostub");
        assertThat(slow.args())
                .isEqualTo(List.of(
                        "--index", "90", "--name", "gostub", "--cpus", "2-3", "--mems", "0", "--delay", "3000ms"));
        assertThatThrownBy(() -> HarnessOptions.CONTAINERD_DEFAULTS.withRequestTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
