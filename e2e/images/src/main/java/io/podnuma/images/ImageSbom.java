package io.podnuma.images;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.podnuma.oci.ImageName;
import io.podnuma.oci.LayerEntry;
import io.podnuma.oci.LayerPath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The CycloneDX 1.6 SBOM of a Java image, made from the very entries that go into its layer, so that nothing is in the
 * image that the SBOM does not name:
 * <ul>
 *   <li>each jar: the Maven artifacts whose {@code META-INF/maven/<group>/<artifact>/pom.properties} it carries (the
 *       shade plugin copies every bundled artifact's), one component each with its version and {@code pkg:maven} purl;
 *       the program's own artifact is the {@code application}, with the jar's SHA-256 and its path in the image. A jar
 *       without Maven metadata fails the build: the SBOM could not name what is in it;
 *   <li>the jlinked runtime: one {@code platform} component, its version from the runtime's own {@code release} file,
 *       its vendor and build from the JDK jlink ran on, its modules, and the CPE scanners match OpenJDK advisories by;
 *   <li>every other file from the build host (the glibc files the runtime loads): the Debian package that owns it
 *       ({@code dpkg-query}), with its version and {@code pkg:deb} purl, each file an occurrence of it; on a host
 *       without dpkg, a {@code file} component with the file's SHA-256;
 *   <li>the agent's AOT cache: a {@code file} component with its SHA-256 (derived data, made by the build).
 * </ul>
 * The small text files the build writes ({@code /etc/passwd}, ...) are configuration, not software, and not listed.
 *
 * <p>Reproducible like the image: no timestamp (optional in CycloneDX), and the serial number is a UUID derived from
 * the document itself, so the same inputs give the same bytes, and the operator image keeps its digest build after
 * build.
 */
final class ImageSbom {
    static final String SPEC_VERSION = "1.6";

    /**
     * Where the SBOM lies in the image: beside the jar and the runtime it describes, in the images' one directory of
     * their own. The {@code .cdx.json} suffix is CycloneDX's recommended file name, and what scanners look for in a
     * container's files (Trivy reads an image's embedded {@code *.cdx.json}).
     */
    static final LayerPath IN_IMAGE = BuildJavaImage.HOME.resolve("sbom.cdx.json");

    private static final Pattern MAVEN_METADATA = Pattern.compile("META-INF/maven/([^/]+)/([^/]+)/pom\\.properties");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ImageSbom() {}

    /** A Maven artifact as a jar's {@code pom.properties} names it. */
    record MavenArtifact(String group, String artifact, String version) {
        String coordinates() {
            return group + ":" + artifact;
        }

        String purl() {
            return "pkg:maven/" + group + "/" + artifact + "@" + purlEncode(version);
        }
    }

    /** A package of the build host's package manager that owns one of the image's files. */
    record HostPackage(String name, String version, String architecture, String distro) {
        String purl() {
            return "pkg:deb/" + distro.replaceAll("-.*", "") + "/" + name + "@" + purlEncode(version) + "?arch="
                    + architecture + "&distro=" + distro;
        }
    }

    /** Which host package owns a host file, where the host can say (Debian's dpkg database); empty otherwise. */
    interface PackageOwners {
        Optional<HostPackage> owner(Path file) throws IOException;
    }

    /**
     * What the image is and what the layer entries alone do not say.
     *
     * @param image the image's name, the SBOM's subject
     * @param program the Maven {@code group:artifact} of the program whose jar the image runs
     * @param runtime the jlinked runtime as built (its {@code release} file)
     * @param runtimeInImage where the runtime lies in the image
     * @param jdkHome the JDK jlink ran from (its vendor and build)
     * @param owners the host's package database
     */
    record Subject(
            ImageName image,
            String program,
            Path runtime,
            LayerPath runtimeInImage,
            Path jdkHome,
            PackageOwners owners) {}

    /** The SBOM of a layer holding {@code entries}, as the JSON text that goes beside the tar and into the image. */
    static String of(Subject subject, List<LayerEntry> entries) throws IOException {
        ObjectNode bom = JSON.createObjectNode();
        bom.put("bomFormat", "CycloneDX");
        bom.put("specVersion", SPEC_VERSION);
        bom.put("version", 1);
        ObjectNode metadata = bom.putObject("metadata");
        ObjectNode tool = metadata.putObject("tools").putArray("components").addObject();
        tool.put("type", "application");
        tool.put("name", "podnuma-images");
        tool.put("description", "podnuma's image builder (e2e/images), which writes the SBOM from the layer's entries");
        ObjectNode image = metadata.putObject("component");
        String imageRef = "image:" + subject.image().reference();
        image.put("bom-ref", imageRef);
        image.put("type", "container");
        image.put("name", subject.image().repository());
        image.put("version", subject.image().tag());

        ArrayNode components = bom.putArray("components");
        Map<String, List<String>> dependsOn = new LinkedHashMap<>();
        List<String> direct = new ArrayList<>();
        dependsOn.put(imageRef, direct);
        Map<HostPackage, List<LayerPath>> packages =
                new TreeMap<>(Comparator.comparing(HostPackage::name).thenComparing(HostPackage::version));
        boolean runtimeSeen = false;
        for (LayerEntry entry : entries) {
            if (!(entry instanceof LayerEntry.HostFile file)) {
                continue;
            }
            LayerPath path = file.path();
            if (path.relative().startsWith(subject.runtimeInImage().relative() + "/")) {
                runtimeSeen = true;
            } else if (path.relative().endsWith(".jar")) {
                direct.addAll(jar(subject.program(), file, components, dependsOn));
            } else if (path.equals(AgentClassCache.IN_IMAGE)) {
                ObjectNode cache = fileComponent(components, file);
                cache.put(
                        "description",
                        "the node agent's AOT cache (JDK 25), trained by the build on the image's"
                                + " own runtime and jar");
                direct.add(cache.get("bom-ref").asText());
            } else {
                Optional<HostPackage> owner = subject.owners().owner(file.source());
                if (owner.isPresent()) {
                    packages.computeIfAbsent(owner.get(), p -> new ArrayList<>())
                            .add(path);
                } else {
                    direct.add(fileComponent(components, file).get("bom-ref").asText());
                }
            }
        }
        if (!runtimeSeen) {
            throw new IllegalStateException("the layer has no file under " + subject.runtimeInImage());
        }
        String jre = runtime(subject, components);
        direct.add(jre);
        List<String> hostPackages = new ArrayList<>();
        for (Map.Entry<HostPackage, List<LayerPath>> p : packages.entrySet()) {
            HostPackage pkg = p.getKey();
            ObjectNode c = components.addObject();
            c.put("bom-ref", pkg.purl());
            c.put("type", "library");
            c.put("name", pkg.name());
            c.put("version", pkg.version());
            c.put("purl", pkg.purl());
            c.put("description", "the build host's package, whose files the runtime loads (ldd)");
            occurrences(c, p.getValue());
            hostPackages.add(pkg.purl());
        }
        direct.addAll(hostPackages);
        // The runtime's native code loads the host's libraries.
        dependsOn.put(jre, hostPackages);

        ArrayNode dependencies = bom.putArray("dependencies");
        for (Map.Entry<String, List<String>> d : dependsOn.entrySet()) {
            ObjectNode dep = dependencies.addObject();
            dep.put("ref", d.getKey());
            ArrayNode on = dep.putArray("dependsOn");
            d.getValue().forEach(on::add);
        }
        // A serial number from the document itself: the same image gives the same SBOM, byte for byte.
        String withoutSerial = JSON.writeValueAsString(bom);
        ObjectNode out = JSON.createObjectNode();
        out.put("bomFormat", "CycloneDX");
        out.put("specVersion", SPEC_VERSION);
        out.put("serialNumber", "urn:uuid:" + UUID.nameUUIDFromBytes(withoutSerial.getBytes(StandardCharsets.UTF_8)));
        bom.properties().forEach(f -> out.putIfAbsent(f.getKey(), f.getValue()));
        return text(out);
    }

    private static String text(ObjectNode node) throws JsonProcessingException {
        return JSON.writeValueAsString(node) + "\n";
    }

    /** The artifacts of one jar; returns the bom-refs the image depends on directly (the program, or each artifact). */
    private static List<String> jar(
            String program, LayerEntry.HostFile file, ArrayNode components, Map<String, List<String>> dependsOn)
            throws IOException {
        List<MavenArtifact> artifacts = mavenArtifacts(file.source());
        if (artifacts.isEmpty()) {
            throw new IllegalStateException(file.source() + " (" + file.path() + " in the image) carries no"
                    + " META-INF/maven/*/*/pom.properties: the SBOM cannot name what is in it");
        }
        Optional<MavenArtifact> main =
                artifacts.stream().filter(a -> a.coordinates().equals(program)).findFirst();
        List<String> bundled = new ArrayList<>();
        for (MavenArtifact a : artifacts) {
            boolean isMain = main.isPresent() && main.get().equals(a);
            ObjectNode c = components.addObject();
            c.put("bom-ref", a.purl());
            c.put("type", isMain ? "application" : "library");
            c.put("group", a.group());
            c.put("name", a.artifact());
            c.put("version", a.version());
            if (isMain) {
                c.putArray("hashes").addObject().put("alg", "SHA-256").put("content", sha256(file.source()));
            }
            c.put("purl", a.purl());
            occurrences(c, List.of(file.path()));
            if (!isMain) {
                bundled.add(a.purl());
            }
        }
        if (main.isEmpty()) {
            return bundled;
        }
        dependsOn.put(main.get().purl(), bundled);
        return List.of(main.get().purl());
    }

    /** The Maven artifacts a jar carries the metadata of, in the jar's order. */
    static List<MavenArtifact> mavenArtifacts(Path jar) throws IOException {
        List<MavenArtifact> artifacts = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : zip.stream().toList()) {
                Matcher m = MAVEN_METADATA.matcher(entry.getName());
                if (!m.matches()) {
                    continue;
                }
                Properties pom = new Properties();
                try (InputStream in = zip.getInputStream(entry)) {
                    pom.load(in);
                }
                String version = pom.getProperty("version");
                if (version == null || version.isBlank()) {
                    throw new IllegalStateException(jar + "!" + entry.getName() + " names no version");
                }
                artifacts.add(new MavenArtifact(
                        pom.getProperty("groupId", m.group(1)), pom.getProperty("artifactId", m.group(2)), version));
            }
        }
        return artifacts;
    }

    private static String runtime(Subject subject, ArrayNode components) throws IOException {
        Map<String, String> runtime = release(subject.runtime().resolve("release"));
        Map<String, String> jdk = release(subject.jdkHome().resolve("release"));
        String version = required(runtime, "JAVA_VERSION", subject.runtime());
        String vendor = jdk.getOrDefault("IMPLEMENTOR", "unknown vendor");
        String build = jdk.getOrDefault("IMPLEMENTOR_VERSION", jdk.getOrDefault("JAVA_RUNTIME_VERSION", version));
        String ref = "jre:" + version;
        ObjectNode c = components.addObject();
        c.put("bom-ref", ref);
        c.put("type", "platform");
        c.putObject("supplier").put("name", vendor);
        c.put("name", "openjdk");
        c.put("version", version);
        c.put(
                "description",
                "a Java runtime made by jlink from " + build + " (" + vendor + "), only the modules the"
                        + " program needs (jdeps)");
        // The CPE NVD files OpenJDK's vulnerabilities under, so a scanner matches the runtime's advisories.
        c.put("cpe", "cpe:2.3:a:oracle:openjdk:" + version + ":*:*:*:*:*:*:*");
        ArrayNode properties = c.putArray("properties");
        properties.addObject().put("name", "podnuma:jre:build").put("value", build);
        properties
                .addObject()
                .put("name", "podnuma:jre:modules")
                .put(
                        "value",
                        String.join(
                                ",",
                                required(runtime, "MODULES", subject.runtime()).split(" ")));
        occurrences(c, List.of(subject.runtimeInImage()));
        return ref;
    }

    private static String required(Map<String, String> release, String key, Path runtime) {
        String value = release.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(runtime.resolve("release") + " has no " + key);
        }
        return value;
    }

    /** A JDK's {@code release} file: {@code KEY="value"} lines. */
    static Map<String, String> release(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return values;
        }
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(
                        line.substring(0, eq).strip(),
                        line.substring(eq + 1).strip().replaceAll("^\"|\"$", ""));
            }
        }
        return values;
    }

    private static ObjectNode fileComponent(ArrayNode components, LayerEntry.HostFile file) throws IOException {
        ObjectNode c = components.addObject();
        c.put("bom-ref", "file:" + file.path().absolute());
        c.put("type", "file");
        c.put("name", file.path().absolute());
        c.putArray("hashes").addObject().put("alg", "SHA-256").put("content", sha256(file.source()));
        occurrences(c, List.of(file.path()));
        return c;
    }

    private static void occurrences(ObjectNode component, List<LayerPath> paths) {
        ArrayNode occurrences = component.putObject("evidence").putArray("occurrences");
        for (LayerPath p : paths) {
            occurrences.addObject().put("location", p.absolute());
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A purl's version: every character but the unreserved ones percent-encoded ({@code +} → {@code %2B}). */
    static String purlEncode(String s) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~:".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    /** The owners as Debian's package database knows them ({@code dpkg-query}); empty where there is no dpkg. */
    static final class Dpkg implements PackageOwners {
        private static final Pattern OWNER = Pattern.compile("^([^\\s:,]+(?::[^\\s:,]+)?): (/.*)$");
        private final String distro;

        Dpkg(String distro) {
            this.distro = distro;
        }

        /** This host's: the distribution from {@code /etc/os-release} ({@code debian-12}). */
        static Dpkg ofHost() throws IOException {
            Map<String, String> os = release(Path.of("/etc/os-release"));
            return new Dpkg(os.getOrDefault("ID", "linux") + "-" + os.getOrDefault("VERSION_ID", "unknown"));
        }

        @Override
        public Optional<HostPackage> owner(Path file) throws IOException {
            Optional<String> pkg = query("-S", file.toString()).flatMap(out -> ownerIn(out, file));
            if (pkg.isEmpty() && !file.toRealPath().equals(file)) {
                // usr-merged hosts: dpkg knows /lib/x86_64-linux-gnu/libc.so.6, ldd may say /usr/lib/...
                Path real = file.toRealPath();
                pkg = query("-S", real.toString()).flatMap(out -> ownerIn(out, real));
            }
            if (pkg.isEmpty()) {
                return Optional.empty();
            }
            Optional<String> fields = query("-W", "-f", "${Package} ${Version} ${Architecture}", pkg.get());
            if (fields.isEmpty()) {
                return Optional.empty();
            }
            String[] f = fields.get().strip().split(" ");
            if (f.length != 3) {
                throw new IOException("dpkg-query -W " + pkg.get() + " printed '" + fields.get() + "'");
            }
            return Optional.of(new HostPackage(f[0], f[1], f[2], distro));
        }

        static Optional<String> ownerIn(String dpkgSearch, Path file) {
            return dpkgSearch
                    .lines()
                    .map(OWNER::matcher)
                    .filter(m -> m.matches() && m.group(2).equals(file.toString()))
                    .map(m -> m.group(1))
                    .findFirst();
        }

        private static Optional<String> query(String... args) throws IOException {
            List<String> command = new ArrayList<>();
            command.add("dpkg-query");
            command.addAll(List.of(args));
            Process p;
            try {
                p = new ProcessBuilder(command)
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
            } catch (IOException noDpkg) {
                return Optional.empty();
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            try {
                return p.waitFor() == 0 ? Optional.of(out) : Optional.empty();
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted in " + command, e);
            }
        }
    }
}
