package io.podnuma.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The real node's pause (sandbox) image, made of our own: a {@code gcc -static} binary that prints one line and
 * sleeps until SIGTERM or SIGINT ({@code /pause --version} prints its version and exits, so {@code kubectl exec}
 * has something to run), packed as an OCI layout tar. It also serves as the simplest workload image.
 */
final class PauseImage {

    static final String NAME = "podnuma.io/pause:1";
    static final String STARTED_LINE = "podnuma pause: started";
    static final String VERSION_LINE = "podnuma pause 1";

    private static final String SOURCE = """
            #include <signal.h>
            #include <stdio.h>
            #include <string.h>
            #include <unistd.h>

            static volatile sig_atomic_t stopping;

            static void stop(int signal) {
                (void) signal;
                stopping = 1;
            }

            int main(int argc, char **argv) {
                if (argc > 1 && strcmp(argv[1], "--version") == 0) {
                    puts("%s");
                    return 0;
                }
                /* As pid 1 a signal without a handler is ignored: handle the two the runtime sends. */
                struct sigaction action;
                memset(&action, 0, sizeof action);
                action.sa_handler = stop;
                sigaction(SIGTERM, &action, NULL);
                sigaction(SIGINT, &action, NULL);
                puts("%s");
                fflush(stdout);
                while (!stopping) {
                    pause();
                }
                return 0;
            }
            """.formatted(VERSION_LINE, STARTED_LINE);

    private PauseImage() {}

    /** Compiles the pause binary in {@code workDir} and writes its image tar there; returns the tar. */
    static Path build(Path workDir) {
        try {
            Files.createDirectories(workDir);
            Path source = workDir.resolve("pause.c");
            Path binary = workDir.resolve("pause");
            Files.writeString(source, SOURCE);
            Commands.runChecked(List.of("gcc", "-static", "-Os", "-s", "-o", binary.toString(), source.toString()));
            Path tar = workDir.resolve("pause.tar");
            OciImageTar.write(
                    tar,
                    NAME,
                    List.of(new OciImageTar.LayerFile("pause", Files.readAllBytes(binary), 0755)),
                    List.of("/pause"));
            return tar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the pause image in " + workDir + ": " + e.getMessage(), e);
        }
    }
}
