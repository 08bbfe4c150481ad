package io.podnuma.agent.nri.ttrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TtrpcFramesTest {

    @Test
    void headerIsLengthStreamTypeFlagsBigEndian() {
        byte[] bytes = TtrpcFrames.encode(new TtrpcFrame(3, TtrpcFrameType.REQUEST, 0, new byte[] {9, 8, 7, 6, 5}));

        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo("00000005" + "00000003" + "01" + "00" + "0908070605");
    }

    @Test
    void aFrameReadsBackAndAnEmptyStreamIsTheEnd() throws Exception {
        byte[] bytes = TtrpcFrames.encode(new TtrpcFrame(0xFFFF_FFFFL, TtrpcFrameType.RESPONSE, 4, new byte[] {1}));
        var in = new ByteArrayInputStream(bytes);

        TtrpcFrame frame = TtrpcFrames.read(in).orElseThrow();

        assertThat(frame.streamId()).isEqualTo(0xFFFF_FFFFL);
        assertThat(frame.type()).isEqualTo(TtrpcFrameType.RESPONSE);
        assertThat(frame.flags()).isEqualTo(4);
        assertThat(frame.payload()).containsExactly(1);
        assertThat(TtrpcFrames.read(in)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            value = {
                "over 4 MiB; 00400001000000010100; over the 4194304-byte limit",
                "unknown type; 00000000000000010900; unknown type 0x09",
                "type 0; 00000000000000010000; unknown type 0x00",
            })
    void aBrokenHeaderIsAProtocolError(String what, String header, String message) {
        var in = new ByteArrayInputStream(HexFormat.of().parseHex(header));

        assertThatThrownBy(() -> TtrpcFrames.read(in))
                .isInstanceOf(TtrpcProtocolException.class)
                .hasMessageContaining(message);
    }

    @Test
    void theStreamEndingInsideAFrameIsAnEofError() {
        assertThatThrownBy(() ->
                        TtrpcFrames.read(new ByteArrayInputStream(HexFormat.of().parseHex("000000"))))
                .isInstanceOf(EOFException.class);
        assertThatThrownBy(() ->
                        TtrpcFrames.read(new ByteArrayInputStream(HexFormat.of().parseHex("000000050000000101000102"))))
                .isInstanceOf(EOFException.class)
                .hasMessageContaining("2 of 5");
    }

    @Test
    void dataOver4MiBCannotBeFramed() {
        assertThatThrownBy(() -> new TtrpcFrame(1, TtrpcFrameType.REQUEST, 0, new byte[TtrpcFrames.MAX_DATA + 1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the 4194304-byte limit");
    }
}
