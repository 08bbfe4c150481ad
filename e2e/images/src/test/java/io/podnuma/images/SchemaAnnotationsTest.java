package io.podnuma.images;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

class SchemaAnnotationsTest {

    @TempDir
    Path dir;

    @Test
    void thePolicySpecLosesTheGeneratorsAnnotationsAndKeepsJacksonsBinding() throws IOException {
        byte[] original = classFile(NumaResourcePolicySpec.class);
        assertThat(annotations(original))
                .as("what the crds class carries before")
                .anyMatch(SchemaAnnotations::buildTimeOnly)
                .contains("Lcom/fasterxml/jackson/annotation/JsonInclude;");

        int[] dropped = new int[1];
        List<String> left = annotations(SchemaAnnotations.without(original, dropped));

        assertThat(dropped[0]).isPositive();
        assertThat(left).noneMatch(SchemaAnnotations::buildTimeOnly);
        assertThat(left).contains("Lcom/fasterxml/jackson/annotation/JsonInclude;");
        // Each declaration annotation gone is counted (type-use annotations, not listed here, are counted too).
        assertThat(dropped[0]).isGreaterThanOrEqualTo(annotations(original).size() - left.size());
    }

    @Test
    void theJarKeepsEveryEntryInOrderAndTouchesOnlyClassesThatCarryOne() throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put(
                "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nMain-Class: x.Main\n".getBytes(StandardCharsets.UTF_8));
        entries.put("io/podnuma/crds/v1alpha1/", new byte[0]);
        entries.put(name(NumaResourcePolicySpec.class), classFile(NumaResourcePolicySpec.class));
        entries.put(name(CpuManagerPolicy.class), classFile(CpuManagerPolicy.class));
        entries.put(
                "schema/policy.json",
                "{\"description\":\"Lio/fabric8/generator/annotation/Min;\"}".getBytes(StandardCharsets.UTF_8));
        Path in = dir.resolve("in.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(in))) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                ZipEntry entry = new ZipEntry(e.getKey());
                entry.setTime(315_532_800_000L);
                zip.putNextEntry(entry);
                zip.write(e.getValue());
                zip.closeEntry();
            }
        }

        SchemaAnnotations.Stripped stripped = SchemaAnnotations.strip(in, dir.resolve("out/image.jar"));

        assertThat(stripped.classes()).isEqualTo(1);
        assertThat(stripped.annotations()).isPositive();
        Map<String, byte[]> out = new LinkedHashMap<>();
        List<Long> times = new ArrayList<>();
        try (ZipFile zip = new ZipFile(stripped.jar().toFile())) {
            for (ZipEntry e : Collections.list(zip.entries())) {
                try (InputStream data = zip.getInputStream(e)) {
                    out.put(e.getName(), data.readAllBytes());
                }
                times.add(e.getTime());
            }
        }
        assertThat(out.keySet()).containsExactlyElementsOf(entries.keySet());
        assertThat(times).containsOnly(315_532_800_000L);
        for (String unchanged : List.of("META-INF/MANIFEST.MF", name(CpuManagerPolicy.class), "schema/policy.json")) {
            assertThat(out.get(unchanged)).as(unchanged).isEqualTo(entries.get(unchanged));
        }
        assertThat(annotations(out.get(name(NumaResourcePolicySpec.class))))
                .noneMatch(SchemaAnnotations::buildTimeOnly);
    }

    private static String name(Class<?> type) {
        return type.getName().replace('.', '/') + ".class";
    }

    private static byte[] classFile(Class<?> type) throws IOException {
        try (InputStream in = type.getClassLoader().getResourceAsStream(name(type))) {
            return in.readAllBytes();
        }
    }

    /** Every annotation's descriptor on the class, its fields, methods, parameters and record components. */
    private static List<String> annotations(byte[] classFile) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, 0);
        List<List<AnnotationNode>> lists = new ArrayList<>();
        lists.add(type.visibleAnnotations);
        lists.add(type.invisibleAnnotations);
        type.fields.forEach(f -> lists.addAll(Arrays.asList(f.visibleAnnotations, f.invisibleAnnotations)));
        for (MethodNode m : type.methods) {
            lists.addAll(Arrays.asList(m.visibleAnnotations, m.invisibleAnnotations));
            for (List<AnnotationNode>[] parameters :
                    Arrays.asList(m.visibleParameterAnnotations, m.invisibleParameterAnnotations)) {
                if (parameters != null) {
                    lists.addAll(Arrays.asList(parameters));
                }
            }
        }
        if (type.recordComponents != null) {
            type.recordComponents.forEach(
                    r -> lists.addAll(Arrays.asList(r.visibleAnnotations, r.invisibleAnnotations)));
        }
        return lists.stream()
                .filter(java.util.Objects::nonNull)
                .flatMap(List::stream)
                .map(a -> a.desc)
                .toList();
    }
}
