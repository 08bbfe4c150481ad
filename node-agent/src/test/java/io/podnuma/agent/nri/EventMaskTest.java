package io.podnuma.agent.nri;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventMaskTest {

    @Test
    void thePinningMaskIs0x78C() {
        assertThat(EventMask.PINNING.bits()).isEqualTo(0x78C);
        assertThat(EventMask.PINNING.toString()).isEqualTo("0x78C");
    }

    @Test
    void theOffByOneShiftGivesADifferentWrongMask() {
        int offByOne = 0;
        for (NriEvent e : EnumSet.of(
                NriEvent.CREATE_CONTAINER,
                NriEvent.UPDATE_CONTAINER,
                NriEvent.POST_UPDATE_CONTAINER,
                NriEvent.STOP_CONTAINER,
                NriEvent.REMOVE_CONTAINER,
                NriEvent.REMOVE_POD_SANDBOX)) {
            offByOne |= 1 << e.number();
        }
        assertThat(offByOne).isEqualTo(0xF18).isNotEqualTo(EventMask.PINNING.bits());
        // 0xF18 names events 4, 5, 9, 10, 11 and 12: no UPDATE or STOP, and event 12 (bit 11) makes a runtime older
        // than NRI v0.10 refuse Configure
        assertThat(offByOne & (1 << 11)).isNotZero();
    }

    @ParameterizedTest(name = "{0} → bit {1}")
    @CsvSource({
        "RUN_POD_SANDBOX, 0",
        "REMOVE_POD_SANDBOX, 2",
        "CREATE_CONTAINER, 3",
        "UPDATE_CONTAINER, 7",
        "STOP_CONTAINER, 9",
        "REMOVE_CONTAINER, 10",
        "VALIDATE_CONTAINER_ADJUSTMENT, 13"
    })
    void eachEventIsBitEventMinusOne(NriEvent event, int bit) {
        assertThat(EventMask.bit(event)).isEqualTo(1 << bit);
        assertThat(EventMask.of(EnumSet.of(event)).contains(event)).isTrue();
    }

    @ParameterizedTest(name = "runtime NRI ''{0}'' keeps events 12-14: {1}")
    @CsvSource({
        "'', false",
        "v0.8.0, false",
        "v0.9.9, false",
        "v0.10.0, true",
        "v0.12.3, true",
        "0.11.0, true",
        "v1.0.0, true",
        "unknown, false",
        "devel, false"
    })
    void eventsFromV010OnlyGoToRuntimesThatSayTheyHaveIt(String version, boolean kept) {
        EventMask all = EventMask.of(EnumSet.allOf(NriEvent.class));
        Optional<String> runtime = version.isEmpty() ? Optional.empty() : Optional.of(version);

        EventMask sent = all.forRuntime(runtime);

        assertThat(sent.bits()).isEqualTo(kept ? 0x3FFF : 0x7FF);
        assertThat(EventMask.PINNING.forRuntime(runtime)).isEqualTo(EventMask.PINNING);
    }
}
