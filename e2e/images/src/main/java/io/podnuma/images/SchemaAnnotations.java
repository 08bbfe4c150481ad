package io.podnuma.images;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.RecordComponentNode;

/**
 * The agent's jar for its image, without the annotations that only the CRD generator reads (at build time, from the
 * crds module's classes): the schema's validation rules, defaults, bounds, printer columns and field descriptions.
 *
 * <p>Why: they are kept at run time, and the JVM parses every annotation of a member at once when Jackson asks for
 * any of them. Binding the policy in the agent's config then built a dynamic proxy class for each of their types and
 * an instance for each use, at every start; the AOT cache holds neither (issue 13). Nothing in the agent reads them:
 * fabric8 needs the resource annotations ({@code @Group}, {@code @Version}, {@code @Kind}, ...), which stay, and
 * Jackson's own binding annotations stay.
 */
final class SchemaAnnotations {

    /** The descriptors (or their package prefixes) of the annotations only the CRD generator reads. */
    static final List<String> BUILD_TIME_ONLY = List.of(
            "Lio/fabric8/generator/annotation/",
            "Lio/fabric8/crd/generator/annotation/",
            "Lio/fabric8/crdv2/generator/",
            "Lcom/fasterxml/jackson/annotation/JsonPropertyDescription;",
            "Lcom/fasterxml/jackson/annotation/JsonClassDescription;");

    /** The jar written, the classes that lost an annotation and how many annotations went. */
    record Stripped(Path jar, int classes, int annotations) {}

    private SchemaAnnotations() {}

    static boolean buildTimeOnly(String descriptor) {
        return BUILD_TIME_ONLY.stream().anyMatch(descriptor::startsWith);
    }

    /**
     * Copies {@code in} to {@code out}, entry by entry in the same order and with the same times, each class without
     * the build-time-only annotations; every other entry byte for byte.
     */
    static Stripped strip(Path in, Path out) throws IOException {
        Files.createDirectories(out.toAbsolutePath().getParent());
        int classes = 0;
        int annotations = 0;
        try (ZipFile zip = new ZipFile(in.toFile());
                ZipOutputStream copy = new ZipOutputStream(Files.newOutputStream(out))) {
            for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
                ZipEntry entry = e.nextElement();
                byte[] bytes;
                try (InputStream data = zip.getInputStream(entry)) {
                    bytes = data.readAllBytes();
                }
                if (entry.getName().endsWith(".class") && mentionsOne(bytes)) {
                    int[] dropped = new int[1];
                    byte[] rewritten = without(bytes, dropped);
                    if (dropped[0] > 0) {
                        bytes = rewritten;
                        classes++;
                        annotations += dropped[0];
                    }
                }
                ZipEntry written = new ZipEntry(entry.getName());
                written.setTime(entry.getTime());
                copy.putNextEntry(written);
                copy.write(bytes);
                copy.closeEntry();
            }
        }
        return new Stripped(out, classes, annotations);
    }

    /** A quick look at the constant pool's text before a class is parsed: most classes name none of them. */
    private static boolean mentionsOne(byte[] classFile) {
        String text = new String(classFile, StandardCharsets.ISO_8859_1);
        return BUILD_TIME_ONLY.stream().anyMatch(text::contains);
    }

    /** The class without those annotations on itself, its fields, methods, parameters and record components. */
    static byte[] without(byte[] classFile, int[] dropped) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, 0);
        dropped[0] += drop(type.visibleAnnotations, type.invisibleAnnotations)
                + drop(type.visibleTypeAnnotations, type.invisibleTypeAnnotations);
        for (FieldNode f : type.fields) {
            dropped[0] += drop(f.visibleAnnotations, f.invisibleAnnotations)
                    + drop(f.visibleTypeAnnotations, f.invisibleTypeAnnotations);
        }
        for (MethodNode m : type.methods) {
            dropped[0] += drop(m.visibleAnnotations, m.invisibleAnnotations)
                    + drop(m.visibleTypeAnnotations, m.invisibleTypeAnnotations);
            for (List<AnnotationNode>[] parameters :
                    List.of(nonNull(m.visibleParameterAnnotations), nonNull(m.invisibleParameterAnnotations))) {
                for (List<AnnotationNode> one : parameters) {
                    dropped[0] += drop(one);
                }
            }
        }
        if (type.recordComponents != null) {
            for (RecordComponentNode r : type.recordComponents) {
                dropped[0] += drop(r.visibleAnnotations, r.invisibleAnnotations)
                        + drop(r.visibleTypeAnnotations, r.invisibleTypeAnnotations);
            }
        }
        ClassWriter writer = new ClassWriter(0);
        type.accept(writer);
        return writer.toByteArray();
    }

    /** How many build-time-only annotations the lists held; each list (ASM leaves an empty one null) loses them. */
    @SafeVarargs
    private static int drop(List<? extends AnnotationNode>... lists) {
        int gone = 0;
        for (List<? extends AnnotationNode> list : lists) {
            if (list != null) {
                int before = list.size();
                list.removeIf(a -> buildTimeOnly(a.desc));
                gone += before - list.size();
            }
        }
        return gone;
    }

    @SuppressWarnings("unchecked")
    private static List<AnnotationNode>[] nonNull(List<AnnotationNode>[] parameters) {
        return parameters == null ? new List[0] : parameters;
    }
}
