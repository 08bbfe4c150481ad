package io.podnuma.securemetrics;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The few DER encodings a self-signed certificate and a key wrapper need (X.690). Each method returns one complete
 * element (tag, length, content). The JDK signs and parses certificates but has no public API to build one. The
 * reading side ({@link #children}) is just enough to take an SEC1 key apart.
 */
final class Der {

    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");

    private Der() {}

    static byte[] sequence(byte[]... parts) {
        return element(0x30, concat(parts));
    }

    static byte[] set(byte[]... parts) {
        return element(0x31, concat(parts));
    }

    static byte[] integer(BigInteger value) {
        return element(0x02, value.toByteArray());
    }

    static byte[] integer(long value) {
        return integer(BigInteger.valueOf(value));
    }

    static byte[] bool(boolean value) {
        return element(0x01, new byte[] {(byte) (value ? 0xff : 0x00)});
    }

    static byte[] nullValue() {
        return new byte[] {0x05, 0x00};
    }

    static byte[] octetString(byte[] content) {
        return element(0x04, content);
    }

    /** A BIT STRING with no unused bits. */
    static byte[] bitString(byte[] content) {
        return element(0x03, concat(new byte[] {0}, content));
    }

    static byte[] utf8String(String s) {
        return element(0x0c, s.getBytes(StandardCharsets.UTF_8));
    }

    /** UTCTime up to 2049, GeneralizedTime from 2050, as RFC 5280 §4.1.2.5 asks. */
    static byte[] time(ZonedDateTime t) {
        ZonedDateTime utc = t.withZoneSameInstant(ZoneOffset.UTC).withNano(0);
        return utc.getYear() < 2050
                ? element(0x17, UTC_TIME.format(utc).getBytes(StandardCharsets.US_ASCII))
                : element(0x18, GENERALIZED_TIME.format(utc).getBytes(StandardCharsets.US_ASCII));
    }

    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        base128(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            base128(out, Long.parseLong(arcs[i]));
        }
        return element(0x06, out.toByteArray());
    }

    /** A context-specific constructed tag {@code [n] EXPLICIT} around one element. */
    static byte[] explicit(int n, byte[] inner) {
        return element(0xa0 | n, inner);
    }

    /** A context-specific primitive tag {@code [n] IMPLICIT} with raw content. */
    static byte[] implicit(int n, byte[] content) {
        return element(0x80 | n, content);
    }

    static byte[] element(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int len = content.length;
        if (len < 0x80) {
            out.write(len);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(len) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(len >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /**
     * The elements inside one constructed element (a SEQUENCE or an explicit tag), each whole (tag, length, content).
     *
     * @throws IllegalArgumentException when {@code element} is not one complete DER element with definite lengths
     */
    static List<byte[]> children(byte[] element) {
        int[] outer = header(element, 0);
        if (outer[0] + outer[1] != element.length) {
            throw new IllegalArgumentException("the DER element's length (" + outer[1] + " bytes of content) does not"
                    + " match its " + element.length + " bytes");
        }
        List<byte[]> out = new ArrayList<>();
        int at = outer[0];
        while (at < element.length) {
            int[] h = header(element, at);
            int end = at + h[0] + h[1];
            out.add(Arrays.copyOfRange(element, at, end));
            at = end;
        }
        return out;
    }

    /** The tag byte of a whole element. */
    static int tag(byte[] element) {
        return element[0] & 0xff;
    }

    /** {the header's bytes, the content's bytes} of the element at {@code at}; its content must lie within {@code der}. */
    private static int[] header(byte[] der, int at) {
        if (der.length - at < 2) {
            throw new IllegalArgumentException("the DER ends inside an element's header at byte " + at);
        }
        int first = der[at + 1] & 0xff;
        int headerLength = 2;
        long length = first;
        if (first >= 0x80) {
            int bytes = first & 0x7f;
            if (bytes == 0 || bytes > 3 || der.length - at < 2 + bytes) {
                throw new IllegalArgumentException("the DER has an unreadable length at byte " + (at + 1));
            }
            length = 0;
            for (int i = 0; i < bytes; i++) {
                length = (length << 8) | (der[at + 2 + i] & 0xff);
            }
            headerLength += bytes;
        }
        if (at + headerLength + length > der.length) {
            throw new IllegalArgumentException(
                    "the DER ends inside an element that claims " + length + " bytes of content at byte " + at);
        }
        return new int[] {headerLength, (int) length};
    }

    private static void base128(ByteArrayOutputStream out, long v) {
        int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 6) / 7);
        for (int i = groups - 1; i >= 0; i--) {
            int b = (int) ((v >>> (7 * i)) & 0x7f);
            out.write(i == 0 ? b : b | 0x80);
        }
    }
}
