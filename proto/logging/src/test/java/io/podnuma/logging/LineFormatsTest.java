package io.podnuma.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LineFormatsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** 2026-12-07T00:21:04.007Z */
    private static final long T = Instant.parse("2026-12-07T00:21:04.007Z").toEpochMilli();

    @Test
    void textLineStartsWithTheUtcTimeInMillisecondsAndReadsLikeSlf4jSimple() {
        String line = LineFormats.text(new LogRecord(T, Level.INFO, "io.podnuma.X", "main", "ready: 1.2 s", null));

        assertThat(line).isEqualTo("2026-12-07T00:21:04.007Z [main] INFO io.podnuma.X - ready: 1.2 s\n");
    }

    @Test
    void timestampsAreIso8601UtcWithMillisecondsAcrossDaysYearsAndBeforeTheEpoch() {
        for (String t : new String[] {
            "1970-01-01T00:00:00.000Z",
            "1969-12-31T23:59:59.999Z",
            "2024-02-29T12:34:56.789Z",
            "2026-12-31T23:59:59.999Z",
            "2027-01-01T00:00:00.001Z",
            "2100-03-01T09:05:03.050Z"
        }) {
            assertThat(Timestamps.format(Instant.parse(t).toEpochMilli())).isEqualTo(t);
        }
    }

    @Test
    void textPutsTheStackTraceWithCausesBelowTheLine() {
        Exception e = new IllegalStateException("outer", new java.io.IOException("inner"));

        String text = LineFormats.text(new LogRecord(T, Level.ERROR, "l", "t", "failed", e));

        String[] lines = text.split("\n");
        assertThat(lines[0]).isEqualTo("2026-12-07T00:21:04.007Z [t] ERROR l - failed");
        assertThat(lines[1]).isEqualTo("java.lang.IllegalStateException: outer");
        assertThat(lines[2]).startsWith("\tat io.podnuma.logging.LineFormatsTest.");
        assertThat(text).contains("\nCaused by: java.io.IOException: inner\n").endsWith("\n");
    }

    @Test
    void jsonHasTheFieldsInOrderOnOneLine() throws Exception {
        String line = LineFormats.json(new LogRecord(T, Level.WARN, "io.podnuma.X", "pool-1", "slow", null));

        assertThat(line)
                .isEqualTo("{\"time\":\"2026-12-07T00:21:04.007Z\",\"level\":\"WARN\",\"logger\":\"io.podnuma.X\","
                        + "\"thread\":\"pool-1\",\"message\":\"slow\"}\n");
        assertThat(JSON.readTree(line).has("exception")).isFalse();
    }

    @Test
    void jsonEscapesQuotesBackslashesNewlinesControlCharactersAndNonAscii() throws Exception {
        String nasty = "say \"hi\" \\ path\nnext\r\tline \u0000\u0001\u001f\u007f é 😀 \u2028 \ud800";

        String line = LineFormats.json(new LogRecord(T, Level.INFO, "a\"b", "t\nx", nasty, null));

        assertThat(line).endsWith("}\n");
        assertThat(line.substring(0, line.length() - 1))
                .as("one line of printable ASCII")
                .matches("[\\x20-\\x7e]*");
        assertThat(line)
                .contains("say \\\"hi\\\" \\\\ path\\nnext\\r\\tline \\u0000\\u0001\\u001f\\u007f \\u00e9"
                        + " \\ud83d\\ude00 \\u2028 \\ud800");
        JsonNode n = JSON.readTree(line);
        assertThat(n.get("message").asText()).isEqualTo(nasty);
        assertThat(n.get("logger").asText()).isEqualTo("a\"b");
        assertThat(n.get("thread").asText()).isEqualTo("t\nx");
    }

    @Test
    void jsonCarriesTheExceptionsClassMessageAndWholeStack() throws Exception {
        Exception e = new IllegalArgumentException("bad \"value\"", new RuntimeException("root"));

        String line = LineFormats.json(new LogRecord(T, Level.ERROR, "l", "main", "failed", e));

        assertThat(line.indexOf('\n')).isEqualTo(line.length() - 1);
        JsonNode ex = JSON.readTree(line).get("exception");
        assertThat(ex.get("class").asText()).isEqualTo("java.lang.IllegalArgumentException");
        assertThat(ex.get("message").asText()).isEqualTo("bad \"value\"");
        assertThat(ex.get("stack").asText())
                .startsWith("java.lang.IllegalArgumentException: bad \"value\"\n\tat io.podnuma.logging.")
                .contains("\nCaused by: java.lang.RuntimeException: root\n");
    }

    @Test
    void jsonWritesAbsentMessagesAsNull() throws Exception {
        String line = LineFormats.json(new LogRecord(T, Level.ERROR, "l", "main", null, new NullPointerException()));

        JsonNode n = JSON.readTree(line);
        assertThat(n.get("message").isNull()).isTrue();
        assertThat(n.get("exception").get("message").isNull()).isTrue();
    }

    @Test
    void formatIsReadFromItsLowerCaseName() {
        assertThat(LogFormat.parse("text")).isEqualTo(LogFormat.TEXT);
        assertThat(LogFormat.parse("json")).isEqualTo(LogFormat.JSON);
        assertThat(LogFormat.JSON.wireName()).isEqualTo("json");
        assertThatThrownBy(() -> LogFormat.parse("JSON")).hasMessage("allowed text, json");
        assertThatThrownBy(() -> LogFormat.parse("logfmt")).hasMessage("allowed text, json");
    }
}
