package io.podnuma.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Seeded random mutations of a valid configuration file: each one loads, or is refused with an
 * {@link AgentConfigException} whose every problem names something; no other exception escapes.
 */
class AgentConfigFuzzTest {

    private static final int MUTATIONS = 4000;
    private static final String TOKENS = " \n\t:-{}[],'\"#&*!|>%@`~0123456789abcxyzNTF.\\/";
    private static final String[] WORDS = {
        "null",
        "~",
        "true",
        "yes",
        "0600",
        "0x1F",
        "1e99",
        "99999999999999999999",
        "-1",
        "[]",
        "{}",
        "''",
        "&a",
        "*a",
        "!!binary",
        "!!int",
        "? ",
        "- ",
        "policy:",
        "cpuManager:",
        "nodeName:",
        "\n  ",
        "\n    "
    };

    @Test
    void everyMutationLoadsOrIsAClearConfigError() {
        long seed = Long.getLong("podnuma.seed", System.nanoTime());
        System.out.println(getClass().getSimpleName() + " seed=" + seed + " (replay with -Dpodnuma.seed=" + seed + ")");
        Random rnd = new Random(seed);
        String valid = AgentConfigLoaderTest.HEADER + """
                nodeName: worker-1
                podResourcesSocketMode: "0600"
                metricsPort: 9100
                reconcilePeriod: 30s
                kubeletStateDir: /var/lib/kubelet
                policy:
                  topologyManager: {policy: single-numa-node, scope: pod}
                  cpuManager:
                    policy: static
                    reservedCpus: "0,4"
                    options: {fullPcpusOnly: true}
                  memoryManager:
                    policy: Static
                    reservedMemory:
                      - numaNode: 0
                        limits: {memory: 1Gi}
                """;
        AgentConfigLoader.parse(valid, "agent.yaml", Map.of(), Map.of());
        int loaded = 0;
        Map<String, Integer> kinds = new TreeMap<>();
        for (int i = 0; i < MUTATIONS; i++) {
            String text = mutate(rnd, valid);
            try {
                AgentConfigLoader.parse(text, "agent.yaml", Map.of(), Map.of());
                loaded++;
            } catch (AgentConfigException e) {
                assertThat(e.problems()).isNotEmpty();
                for (String p : e.problems()) {
                    assertThat(p).as("seed %d mutation %d:%n%s", seed, i, text).hasSizeGreaterThan(15);
                    assertThat(p).doesNotContain("Exception", "io.podnuma", "java.lang");
                }
                String first = e.problems().getFirst();
                kinds.merge(first.startsWith("agent.yaml: not valid YAML") ? "yaml" : "setting", 1, Integer::sum);
            } catch (RuntimeException e) {
                fail("seed " + seed + " mutation " + i + " threw " + e + " for:\n" + text, e);
            }
        }
        System.out.println(
                getClass().getSimpleName() + ": " + MUTATIONS + " mutations, " + loaded + " loaded, refused " + kinds);
        assertThat(kinds.getOrDefault("yaml", 0)).isGreaterThan(MUTATIONS / 20);
        assertThat(kinds.getOrDefault("setting", 0)).isGreaterThan(MUTATIONS / 20);
        assertThat(loaded).isGreaterThan(0);
    }

    private static String mutate(Random rnd, String valid) {
        StringBuilder sb = new StringBuilder(valid);
        int rounds = 1 + rnd.nextInt(3);
        for (int k = 0; k < rounds && !sb.isEmpty(); k++) {
            int at = rnd.nextInt(sb.length());
            switch (rnd.nextInt(6)) {
                case 0 -> sb.setCharAt(at, TOKENS.charAt(rnd.nextInt(TOKENS.length())));
                case 1 -> sb.deleteCharAt(at);
                case 2 -> sb.insert(at, WORDS[rnd.nextInt(WORDS.length)]);
                case 3 -> sb.setLength(at);
                case 4 -> sb.setCharAt(at, (char) rnd.nextInt(0x250));
                default -> {
                    int end = Math.min(sb.length(), at + 1 + rnd.nextInt(40));
                    sb.insert(rnd.nextInt(sb.length() + 1), sb.substring(at, end));
                }
            }
        }
        return sb.toString();
    }
}
