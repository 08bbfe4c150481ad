package io.podnuma.crds.schema;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts the printer columns of a generated CRD in the order its class declares them ({@code @AdditionalPrinterColumn},
 * top to bottom). fabric8's generator sorts them by JSONPath, which puts {@code Age} ({@code .metadata...}) first;
 * kubectl users expect AGE last, as in every built-in kind. The build runs it right after the generator
 * ({@code process-classes}, see crds/pom.xml); it edits only the column list, so the rest of the file stays byte for
 * byte what the generator wrote, and running it twice changes nothing.
 */
public final class PrinterColumnOrder {

    /** fabric8 writes one version (a list item under spec.versions) and its columns as a list below it. */
    private static final String COLUMNS = "  - additionalPrinterColumns:";

    private static final String ITEM = "    - ";
    private static final String ITEM_CONTINUED = "      ";
    private static final Pattern NAME = Pattern.compile("^(?:    - |      )name: \"(.*)\"$");

    private PrinterColumnOrder() {}

    /** {@code args}: the generator's output directory, then the classes of the kinds whose CRDs to reorder. */
    public static void main(String[] args) throws IOException, ClassNotFoundException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: PrinterColumnOrder <generated-dir> <kind class>...");
        }
        Path dir = Path.of(args[0]);
        for (String kind : Arrays.asList(args).subList(1, args.length)) {
            rewrite(dir, Class.forName(kind));
        }
    }

    /** Reorders {@code <plural>.<group>-v1.yml} in {@code dir}, the file the generator writes for {@code kind}. */
    public static void rewrite(Path dir, Class<?> kind) throws IOException {
        Path file = dir.resolve(kind.getAnnotation(Plural.class).value() + "."
                + kind.getAnnotation(Group.class).value() + "-v1.yml");
        String yaml = Files.readString(file, StandardCharsets.UTF_8);
        String ordered = reorder(yaml, declaredColumns(kind), file.toString());
        if (!ordered.equals(yaml)) {
            Files.writeString(file, ordered, StandardCharsets.UTF_8);
        }
    }

    /** The column names of {@code kind} in the order its annotations are written. */
    public static List<String> declaredColumns(Class<?> kind) {
        return Arrays.stream(kind.getAnnotationsByType(AdditionalPrinterColumn.class))
                .map(AdditionalPrinterColumn::name)
                .toList();
    }

    /**
     * {@code yaml} with its printer columns in the order of {@code names}.
     *
     * @throws IllegalStateException when the file has no column list in fabric8's layout, or other columns than
     *     {@code names}: the generator changed its output, and this step must follow
     */
    public static String reorder(String yaml, List<String> names, String source) {
        List<String> lines = new ArrayList<>(List.of(yaml.split("\n", -1)));
        int header = lines.indexOf(COLUMNS);
        if (header < 0 || lines.lastIndexOf(COLUMNS) != header) {
            throw new IllegalStateException(source + ": expected one line \"" + COLUMNS + "\" (fabric8's layout of a"
                    + " single version's printer columns)");
        }
        List<List<String>> items = new ArrayList<>();
        int end = header + 1;
        while (end < lines.size()
                && (lines.get(end).startsWith(ITEM) || lines.get(end).startsWith(ITEM_CONTINUED))) {
            if (lines.get(end).startsWith(ITEM)) {
                items.add(new ArrayList<>());
            }
            if (items.isEmpty()) {
                throw new IllegalStateException(source + ": line " + (end + 1) + " continues no printer column");
            }
            items.getLast().add(lines.get(end));
            end++;
        }
        List<String> found = items.stream().map(i -> name(i, source)).toList();
        if (found.size() != names.size() || !found.containsAll(names)) {
            throw new IllegalStateException(
                    source + ": the printer columns " + found + " are not the declared ones " + names);
        }
        List<String> ordered = new ArrayList<>(lines.subList(0, header + 1));
        items.stream()
                .sorted(Comparator.comparingInt(i -> names.indexOf(name(i, source))))
                .forEach(ordered::addAll);
        ordered.addAll(lines.subList(end, lines.size()));
        return String.join("\n", ordered);
    }

    private static String name(List<String> item, String source) {
        for (String line : item) {
            Matcher m = NAME.matcher(line);
            if (m.matches()) {
                return m.group(1);
            }
        }
        throw new IllegalStateException(source + ": a printer column without a name: " + item.getFirst());
    }
}
