package io.podnuma.testkit.svg;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * An SVG picture as the JDK's XML parser reads it: parsing fails on anything not well-formed, and a picture that is
 * not self-contained (a DOCTYPE, an external entity) is refused as well.
 */
public final class SvgDocument {

    public static final String SVG_NS = "http://www.w3.org/2000/svg";

    private final Document doc;

    private SvgDocument(Document doc) {
        this.doc = doc;
    }

    public static SvgDocument parse(Path file) throws IOException {
        return parse(Files.readString(file));
    }

    /** Parses {@code xml}; an {@link AssertionError} says why it is not a well-formed, self-contained SVG. */
    public static SvgDocument parse(String xml) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setExpandEntityReferences(false);
            var builder = f.newDocumentBuilder();
            Document doc = builder.parse(new InputSource(new StringReader(xml)));
            Element root = doc.getDocumentElement();
            if (!"svg".equals(root.getLocalName()) || !SVG_NS.equals(root.getNamespaceURI())) {
                throw new AssertionError("the root is <" + root.getTagName() + ">, not an SVG <svg> element");
            }
            return new SvgDocument(doc);
        } catch (SAXException | IOException e) {
            throw new AssertionError("not well-formed XML: " + e.getMessage(), e);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    public Element root() {
        return doc.getDocumentElement();
    }

    /** The root's {@code <title>} (the first child element named so). */
    public String title() {
        NodeList titles = root().getElementsByTagNameNS(SVG_NS, "title");
        return titles.getLength() == 0 ? "" : titles.item(0).getTextContent();
    }

    /** Every element named {@code tag} whose {@code class} attribute lists {@code cls}, in document order. */
    public List<Element> withClass(String tag, String cls) {
        return withClass(root(), tag, cls);
    }

    /** The same below {@code under}. */
    public static List<Element> withClass(Element under, String tag, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList all = under.getElementsByTagNameNS(SVG_NS, tag);
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (Arrays.asList(e.getAttribute("class").split(" ")).contains(cls)) {
                out.add(e);
            }
        }
        return out;
    }

    /** The text of every {@code <text>} element, in document order. */
    public List<String> texts() {
        List<String> out = new ArrayList<>();
        NodeList all = root().getElementsByTagNameNS(SVG_NS, "text");
        for (int i = 0; i < all.getLength(); i++) {
            out.add(all.item(i).getTextContent());
        }
        return out;
    }

    /** A numeric attribute (a coordinate or length). */
    public static double number(Element e, String attribute) {
        String v = e.getAttribute(attribute);
        if (v.isEmpty()) {
            throw new AssertionError("<" + e.getTagName() + "> has no " + attribute);
        }
        return Double.parseDouble(v);
    }
}
