package io.podnuma.agent.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code --svg FILE} option: the command also draws the machine as an SVG picture into {@code FILE}. The picture is
 * made by the engine's pure {@code picture} package; this class only writes it.
 */
final class SvgOption {

    @Option(
            names = "--svg",
            paramLabel = "FILE",
            converter = SvgFile.class,
            description = "Also draw the machine as an SVG picture into FILE (*.svg; replaced if it exists): socket,"
                    + " NUMA node, core, thread; each CPU coloured by its pod and pool.")
    Path file;

    /** Writes the picture when {@code --svg} was given; false (with the reason on {@code err}) when it cannot. */
    boolean write(Supplier<String> picture, PrintWriter err) {
        if (file == null) {
            return true;
        }
        try {
            Files.writeString(file, picture.get());
            return true;
        } catch (IOException e) {
            err.println("error: --svg " + file + ": cannot write the picture: " + e);
            return false;
        }
    }

    /** Refuses, before anything runs, a file the picture could not be written to or that is not named *.svg. */
    static final class SvgFile implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            Path p = Path.of(value);
            if (Files.isDirectory(p)) {
                throw new TypeConversionException(
                        "'" + value + "' is a directory; give the picture's file, e.g. " + p.resolve("machine.svg"));
            }
            if (!p.getFileName().toString().endsWith(".svg")) {
                throw new TypeConversionException(
                        "'" + value + "' does not end in .svg; the picture is an SVG file, e.g. machine.svg");
            }
            Path dir = p.toAbsolutePath().getParent();
            if (!Files.isDirectory(dir)) {
                throw new TypeConversionException(
                        "'" + value + "': the directory " + dir + " does not exist; create it first");
            }
            return p;
        }
    }
}
