package io.podnuma.agent.engine.picture;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A small writer of self-contained SVG documents: elements, escaped text and attributes, numbers written the same on
 * every machine. The document's size is given at the end, once the drawing knows it.
 */
public final class Svg {

    private final StringBuilder body = new StringBuilder();
    private final Deque<String> open = new ArrayDeque<>();

    /** Opens {@code <tag name="value" ...>}; {@code attrs} are name, value pairs. */
    public Svg open(String tag, String... attrs) {
        indent();
        body.append('<').append(tag);
        attributes(attrs);
        body.append(">\n");
        open.push(tag);
        return this;
    }

    public Svg close() {
        String tag = open.pop();
        indent();
        body.append("</").append(tag).append(">\n");
        return this;
    }

    /** {@code <tag .../>}. */
    public Svg empty(String tag, String... attrs) {
        indent();
        body.append('<').append(tag);
        attributes(attrs);
        body.append("/>\n");
        return this;
    }

    /** {@code <tag ...>text</tag>}, the text escaped. */
    public Svg element(String tag, String text, String... attrs) {
        indent();
        body.append('<').append(tag);
        attributes(attrs);
        body.append('>').append(escape(text)).append("</").append(tag).append(">\n");
        return this;
    }

    /**
     * The whole document: an XML declaration, the {@code <svg>} root of the given size with {@code title} as its
     * {@code <title>} (what a browser's tab and a screen reader show), {@code css} as its only style sheet, then the
     * body.
     */
    public String document(double width, double height, String title, String css) {
        if (!open.isEmpty()) {
            throw new IllegalStateException("elements left open: " + open);
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height)
                + "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\" role=\"img\">\n"
                + "<title>" + escape(title) + "</title>\n"
                + "<style>" + escape(css) + "</style>\n"
                + body
                + "</svg>\n";
    }

    /**
     * Text or an attribute value as XML 1.0 can hold it: markup characters escaped, characters XML 1.0 forbids
     * (control characters, lone surrogates) replaced by U+FFFD, so that any name a user gave still parses.
     */
    public static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> {
                    if (Character.isHighSurrogate(c)
                            && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        sb.append(c).append(s.charAt(++i));
                    } else if (allowed(c)) {
                        sb.append(c);
                    } else {
                        sb.append('\uFFFD');
                    }
                }
            }
        }
        return sb.toString();
    }

    private static boolean allowed(char c) {
        return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD);
    }

    /** A coordinate: at most two decimals, no exponent, no locale. */
    public static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("not a coordinate: " + v);
        }
        long hundredths = Math.round(v * 100);
        if (hundredths % 100 == 0) {
            return Long.toString(hundredths / 100);
        }
        return String.format(Locale.ROOT, "%.2f", hundredths / 100.0).replaceAll("0$", "");
    }

    private void attributes(String[] attrs) {
        if (attrs.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in name, value pairs");
        }
        for (int i = 0; i < attrs.length; i += 2) {
            body.append(' ')
                    .append(attrs[i])
                    .append("=\"")
                    .append(escape(attrs[i + 1]))
                    .append('"');
        }
    }

    private void indent() {
        // no indentation: a machine of hundreds of CPUs would pay kilobytes for it
    }
}
