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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.RecordComponentVisitor;

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
        List<String> found = new ArrayList<>();
        new ClassReader(classFile)
                .accept(
                        new ClassVisitor(Opcodes.ASM9) {
                            @Override
                            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                                found.add(descriptor);
                                return null;
                            }

                            @Override
                            public FieldVisitor visitField(
                                    int access, String name, String descriptor, String signature, Object value) {
                                return new FieldVisitor(Opcodes.ASM9) {
                                    @Override
                                    public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                                        found.add(desc);
                                        return null;
                                    }
                                };
                            }

                            @Override
                            public MethodVisitor visitMethod(
                                    int access, String name, String descriptor, String signature, String[] exceptions) {
                                return new MethodVisitor(Opcodes.ASM9) {
                                    @Override
                                    public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                                        found.add(desc);
                                        return null;
                                    }

                                    @Override
                                    public AnnotationVisitor visitParameterAnnotation(
                                            int parameter, String desc, boolean visible) {
                                        found.add(desc);
                                        return null;
                                    }
                                };
                            }

                            @Override
                            public RecordComponentVisitor visitRecordComponent(
                                    String name, String descriptor, String signature) {
                                return new RecordComponentVisitor(Opcodes.ASM9) {
                                    @Override
                                    public AnnotationVisitor visitAnnotation(String desc, boolean visible) {
                                        found.add(desc);
                                        return null;
                                    }
                                };
                            }
                        },
                        0);
        return found;
    }
}
