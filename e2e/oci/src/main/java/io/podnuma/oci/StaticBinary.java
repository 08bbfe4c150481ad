package io.podnuma.oci;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Compiles one C file into a static, stripped executable with the host's gcc and static glibc, so the image needs
 * no libraries, no loader and no shell.
 */
public final class StaticBinary {
    private StaticBinary() {}

    public static Path compile(Path source, Path output) throws IOException {
        Files.createDirectories(output.toAbsolutePath().getParent());
        List<String> command = List.of(
                "gcc",
                "-static",
                "-Os",
                "-s",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-o",
                output.toString(),
                source.toString());
        Process gcc;
        try {
            gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException(
                    "gcc is needed to build " + output.getFileName() + " (Debian: apt-get install gcc libc6-dev): "
                            + e.getMessage(),
                    e);
        }
        String log = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit;
        try {
            exit = gcc.waitFor();
        } catch (InterruptedException e) {
            gcc.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while compiling " + source, e);
        }
        if (exit != 0) {
            throw new IOException(String.join(" ", command) + " exited " + exit + ":\n" + log);
        }
        return output;
    }
}
