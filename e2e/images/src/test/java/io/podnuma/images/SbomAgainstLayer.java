package io.podnuma.images;

import com.fasterxml.jackson.databind.JsonNode;
import io.podnuma.oci.TarEntries;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * What an image's layer holds that its SBOM does not name, read from the layer's bytes apart from the build's own
 * code (the jars opened with a ZipInputStream, not ImageSbom's reader): every Maven artifact of every jar with its
 * version and where the jar lies, the runtime with the version of its own {@code release} file, and every other file
 * from the build host as the occurrence of some component. The files the build writes itself ({@code /etc}, the SBOM)
 * are configuration and not checked.
 */
final class SbomAgainstLayer {
    private static final Pattern MAVEN_METADATA = Pattern.compile("META-INF/maven/([^/]+)/([^/]+)/pom\\.properties");
    private static final String JRE = "opt/podnuma/jre/";

    private SbomAgainstLayer() {}

    /** One line per thing in the layer the SBOM misses; empty when it names everything. */
    static List<String> unlisted(TarEntries layer, JsonNode sbom) throws IOException {
        List<String> missing = new ArrayList<>();
        Set<String> located = new HashSet<>();
        sbom.path("components").forEach(c -> located.addAll(locations(c)));
        for (TarEntries.Entry e : layer.byName().values()) {
            if (e.type() != '0' || e.name().startsWith("etc/") || e.name().equals("opt/podnuma/sbom.cdx.json")) {
                continue;
            }
            String path = "/" + e.name();
            if (e.name().startsWith(JRE) && !e.name().equals(JRE + "release")) {
                // The runtime's own files (lib/jrt-fs.jar too) are the runtime's component, checked by its release.
                continue;
            }
            if (e.name().endsWith(".jar")) {
                List<String[]> artifacts = artifacts(e.content());
                if (artifacts.isEmpty()) {
                    missing.add(path + ": a jar that names no Maven artifact");
                }
                for (String[] a : artifacts) {
                    if (!listed(sbom, a[0], a[1], a[2], path)) {
                        missing.add(path + ": " + a[0] + ":" + a[1] + ":" + a[2]);
                    }
                }
            } else if (e.name().equals(JRE + "release")) {
                String version = javaVersion(e.text());
                boolean jre = false;
                for (JsonNode c : sbom.path("components")) {
                    jre |= c.path("type").asText().equals("platform")
                            && c.path("version").asText().equals(version)
                            && locations(c).contains("/" + JRE.substring(0, JRE.length() - 1));
                }
                if (!jre) {
                    missing.add("the runtime /" + JRE + " (JAVA_VERSION " + version + ")");
                }
            } else if (!located.contains(path)) {
                missing.add(path + ": a file of no component");
            }
        }
        if (layer.byName().keySet().stream().noneMatch(n -> n.equals(JRE + "release"))) {
            missing.add("the layer has no /" + JRE + "release to check the runtime against");
        }
        return missing;
    }

    private static boolean listed(JsonNode sbom, String group, String artifact, String version, String location) {
        for (JsonNode c : sbom.path("components")) {
            if (c.path("group").asText().equals(group)
                    && c.path("name").asText().equals(artifact)
                    && c.path("version").asText().equals(version)
                    && c.path("purl").asText().startsWith("pkg:maven/" + group + "/" + artifact + "@")
                    && locations(c).contains(location)) {
                return true;
            }
        }
        return false;
    }

    /** Where a component lies in the image, in the SBOM's order. */
    static List<String> locations(JsonNode component) {
        List<String> out = new ArrayList<>();
        component
                .path("evidence")
                .path("occurrences")
                .forEach(o -> out.add(o.path("location").asText()));
        return out;
    }

    /** {group, artifact, version} of each pom.properties in the jar. */
    static List<String[]> artifacts(byte[] jar) throws IOException {
        List<String[]> out = new ArrayList<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(jar))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                Matcher m = MAVEN_METADATA.matcher(entry.getName());
                if (m.matches()) {
                    Properties p = new Properties();
                    p.load(new StringReader(new String(zip.readAllBytes(), StandardCharsets.ISO_8859_1)));
                    out.add(new String[] {
                        p.getProperty("groupId"), p.getProperty("artifactId"), p.getProperty("version")
                    });
                }
            }
        }
        return out;
    }

    static String javaVersion(String release) {
        Matcher m = Pattern.compile("(?m)^JAVA_VERSION=\"([^\"]+)\"").matcher(release);
        if (!m.find()) {
            throw new AssertionError("no JAVA_VERSION in the runtime's release file:\n" + release);
        }
        return m.group(1);
    }
}
