package io.podnuma.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints the comparison table from JMH's JSON result and the Go program's result (figures only; nothing is
 * asserted).
 *
 * <p>Usage: {@code BenchReport <jmh.json> <kubelet.json> [<table.md>]}.
 */
public final class BenchReport {

    private BenchReport() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: BenchReport <jmh.json> <kubelet.json> [<table.md>]");
            System.exit(2);
        }
        List<Measurement> podnuma = ResultFiles.readJmh(Path.of(args[0]));
        Path kubeletFile = Path.of(args[1]);
        List<Measurement> kubelet = Files.exists(kubeletFile) ? ResultFiles.readKubelet(kubeletFile) : List.of();
        String table = ComparisonTable.format(podnuma, kubelet);
        System.out.print(table);
        if (args.length == 3) {
            Files.writeString(Path.of(args[2]), table);
        }
    }
}
