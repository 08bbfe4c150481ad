package io.podnuma.images;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The build host's shared libraries a set of ELF files load, as {@code ldd} names them: the glibc files a jlinked
 * runtime needs in an image without a base. Libraries found inside the runtime itself are left out (they are in the
 * image already, also those ldd cannot find because the JVM loads them by path); the dynamic loader is reported under the absolute path the ELF files ask for.
 */
final class HostLibraries {
    /** "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)". */
    private static final Pattern RESOLVED =
            Pattern.compile("^\\s*(?:\\S+\\s+=>\\s+)?(/\\S+)\\s+\\(0x[0-9a-f]+\\)\\s*$");

    private static final Pattern NOT_FOUND = Pattern.compile("^\\s*(\\S+)\\s+=>\\s+not found\\s*$");

    private HostLibraries() {}

    /** One line of ldd's output: a library at a path, one it cannot find, or anything else (vdso, headers). */
    sealed interface LddLine {
        record Resolved(Path library) implements LddLine {}

        record NotFound(String name) implements LddLine {}

        record Other(String line) implements LddLine {}

        static LddLine parse(String line) {
            Matcher notFound = NOT_FOUND.matcher(line);
            if (notFound.matches()) {
                return new NotFound(notFound.group(1));
            }
            Matcher resolved = RESOLVED.matcher(line);
            return resolved.matches() ? new Resolved(Path.of(resolved.group(1)).normalize()) : new Other(line);
        }
    }

    static SortedSet<Path> of(List<Path> elfFiles, Path runtime) throws IOException {
        SortedSet<Path> libraries = new TreeSet<>();
        Path runtimeReal = runtime.toRealPath();
        Set<String> inRuntime = new HashSet<>();
        for (Path elf : elfFiles) {
            inRuntime.add(elf.getFileName().toString());
        }
        for (Path elf : elfFiles) {
            for (String line : ldd(elf)) {
                switch (LddLine.parse(line)) {
                    case LddLine.Resolved r -> {
                        if (!r.library().toRealPath().startsWith(runtimeReal)) {
                            libraries.add(r.library());
                        }
                    }
                    // e.g. libawt.so => libjvm.so: the JVM loads both itself, from lib/server, before the dependant.
                    case LddLine.NotFound n when inRuntime.contains(n.name()) -> {}
                    case LddLine.NotFound n ->
                        throw new IOException(elf + " needs " + n.name() + ", which this host does not have");
                    case LddLine.Other o -> {}
                }
            }
        }
        return libraries;
    }

    /** The ELF files of a runtime directory: what {@code ldd} can say anything about. */
    static List<Path> elfFiles(Path runtime) throws IOException {
        List<Path> elf = new ArrayList<>();
        try (var files = Files.walk(runtime)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                byte[] head = new byte[4];
                try (var in = Files.newInputStream(file)) {
                    if (in.read(head) == 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F') {
                        elf.add(file);
                    }
                }
            }
        }
        return elf;
    }

    private static List<String> ldd(Path elf) throws IOException {
        Process ldd = new ProcessBuilder("ldd", elf.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(ldd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            ldd.waitFor();
        } catch (InterruptedException e) {
            ldd.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted in ldd " + elf, e);
        }
        // ldd exits 1 for "not a dynamic executable" (e.g. a static helper): nothing to add then.
        return out.lines().toList();
    }
}
