package io.podnuma.agent.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.testing.Seeds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Seeded property tests of the three cgroup-name parsers on random and mutated input: every input either parses to a
 * value that round-trips (and, where an independent oracle exists, to the value the oracle expects) or is refused
 * with {@link InvalidCgroupNameException} naming the input; no other exception. The seed is printed; replay with
 * {@code -Dpodnuma.seed=<seed>}, more cases with {@code -Dpodnuma.cases=<n>}.
 */
class CgroupNameFuzzTest {

    private static final int CASES = Integer.getInteger("podnuma.cases", 20_000);
    private static final Pattern CONTAINER_ID = Pattern.compile("(containerd|cri-o)://[0-9a-f]{64}");
    private static final Pattern POD_UID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}");
    /** Characters that matter to the parsers, plus some that should not. */
    private static final String ALPHABET = "0123456789abcdefABCDEFxyz-_./:\\ \t\n\u0000\u00e9\u4e2d\ud83d\ude00";

    private enum Outcome {
        PARSED,
        NOT_A_CONTAINER,
        REFUSED
    }

    private final long seed = Seeds.announce(getClass().getSimpleName());
    private final Random rnd = new Random(seed);

    private String where(String input) {
        return "seed " + seed + " (replay with -Dpodnuma.seed=" + seed + "), input " + escaped(input);
    }

    /** Java-escaped, so that a lone surrogate or a control character survives the report. */
    private static String escaped(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return b.append('"').toString();
    }

    private void printSeed(String test) {
        System.out.println(getClass().getSimpleName() + "." + test + " seed=" + seed + " (replay with -Dpodnuma.seed="
                + seed + "), " + CASES + " cases");
    }

    @Test
    void containerIdsParseExactlyTheOracleAndRoundTrip() {
        printSeed("containerIds");
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        for (int i = 0; i < CASES; i++) {
            String input = switch (rnd.nextInt(4)) {
                case 0 -> randomText(80);
                case 1 -> mutate(validContainerId());
                case 2 -> validContainerId();
                default ->
                    pick("containerd", "cri-o", "docker", "crio", "", "CONTAINERD")
                            + pick("://", ":/", ":///", "")
                            + mutate(hex(64));
            };
            Outcome o = guard(input, () -> {
                ContainerId id = ContainerId.parse(input);
                assertThat(id.toString()).as(where(input)).isEqualTo(input);
                assertThat(ContainerId.parse(id.toString())).as(where(input)).isEqualTo(id);
                assertThat(new ContainerId(id.runtime(), id.id())).isEqualTo(id);
                return Outcome.PARSED;
            });
            assertThat(o == Outcome.PARSED)
                    .as(where(input) + " parses iff it is <containerd|cri-o>://<64 lowercase hex>")
                    .isEqualTo(CONTAINER_ID.matcher(input).matches());
            outcomes.merge(o, 1, Integer::sum);
        }
        assertThat(guard(null, () -> {
                    ContainerId.parse(null);
                    return Outcome.PARSED;
                }))
                .isEqualTo(Outcome.REFUSED);
        System.out.println("  container IDs: " + outcomes);
        assertThat(outcomes.getOrDefault(Outcome.PARSED, 0)).isPositive();
        assertThat(outcomes.getOrDefault(Outcome.REFUSED, 0)).isPositive();
    }

    @Test
    void cgroupPathsParseToValidSegmentsAndRoundTrip() {
        printSeed("cgroupPaths");
        Path hierarchy = Path.of("/sys/fs/cgroup/cpuset");
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        for (int i = 0; i < CASES; i++) {
            String input = rnd.nextBoolean()
                    ? randomText(60)
                    : mutate(validContainerPath(CgroupDriver.values()[rnd.nextInt(2)])
                            .toString());
            Outcome o = guard(input, () -> {
                CgroupPath p = CgroupPath.parse(input);
                for (String s : p.segments()) {
                    assertThat(s)
                            .as(where(input))
                            .isNotEmpty()
                            .isNotIn(".", "..")
                            .doesNotContain("/", "\0");
                }
                assertThat(String.join("", p.segments()))
                        .as(where(input) + ": only slashes are dropped")
                        .isEqualTo(input.replace("/", ""));
                assertThat(CgroupPath.parse(p.toString())).as(where(input)).isEqualTo(p);
                assertThat(new CgroupPath(p.segments())).as(where(input)).isEqualTo(p);
                assertThat(CgroupPath.relativize(hierarchy, p.in(hierarchy)))
                        .as(where(input))
                        .isEqualTo(p);
                if (!p.isRoot()) {
                    assertThat(p.parent().child(p.segments().get(p.segments().size() - 1)))
                            .isEqualTo(p);
                }
                return Outcome.PARSED;
            });
            boolean notADirectoryName = false;
            for (String s : input.split("/", -1)) {
                notADirectoryName |= s.equals(".")
                        || s.equals("..")
                        || s.indexOf('\0') >= 0
                        || !StandardCharsets.UTF_8.newEncoder().canEncode(s);
            }
            assertThat(o == Outcome.REFUSED)
                    .as(where(input) + " refused iff a segment is . or .. or holds NUL or half a surrogate pair")
                    .isEqualTo(notADirectoryName);
            outcomes.merge(o, 1, Integer::sum);
        }
        // Found by this test: half a surrogate pair was accepted, and in() then threw InvalidPathException.
        assertThat(guard("kubepods/\ud83d/x", () -> {
                    CgroupPath.parse("kubepods/\ud83d/x");
                    return Outcome.PARSED;
                }))
                .isEqualTo(Outcome.REFUSED);
        assertThat(lastRefusal).contains("unpaired UTF-16 surrogates are not allowed");
        assertThat(CgroupPath.parse("kubepods/\ud83d\ude00")
                        .in(hierarchy)
                        .getFileName()
                        .toString())
                .isEqualTo("\ud83d\ude00");
        System.out.println("  cgroup paths: " + outcomes);
        assertThat(outcomes.getOrDefault(Outcome.REFUSED, 0)).isPositive();
    }

    @Test
    void kubeletNamesParseToContainersThatRoundTripOrAreClearlyRefused() {
        printSeed("kubeletNames");
        Map<CgroupDriver, Map<Outcome, Integer>> outcomes = new EnumMap<>(CgroupDriver.class);
        for (int i = 0; i < CASES; i++) {
            CgroupDriver driver = CgroupDriver.values()[rnd.nextInt(2)];
            CgroupNaming naming = new CgroupNaming(driver);
            ContainerCgroup valid = validContainer();
            List<String> segments = new ArrayList<>(naming.containerPath(valid).segments());
            boolean untouched = true;
            switch (rnd.nextInt(6)) {
                case 0 -> {} // as the kubelet names it
                case 1 -> {
                    int at = rnd.nextInt(segments.size());
                    segments.set(at, mutate(segments.get(at)));
                    untouched = false;
                }
                case 2 -> {
                    int at = rnd.nextInt(segments.size());
                    segments.set(at, pieceFor(driver, at));
                    untouched = false;
                }
                case 3 -> {
                    segments.subList(rnd.nextInt(segments.size()) + 1, segments.size())
                            .clear();
                    untouched = false;
                }
                case 4 -> {
                    segments.add(rnd.nextBoolean() ? pieceFor(driver, segments.size()) : randomText(12));
                    untouched = false;
                }
                default -> {
                    segments = new CgroupNaming(driver == CgroupDriver.CGROUPFS ? CgroupDriver.SYSTEMD : driver)
                            .containerPath(valid)
                            .segments();
                    untouched = driver == CgroupDriver.SYSTEMD;
                }
            }
            String input = String.join("/", segments);
            CgroupPath path;
            try {
                path = new CgroupPath(segments);
            } catch (InvalidCgroupNameException e) {
                assertThat(e.getMessage()).as(where(input)).contains("is not a directory name");
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError(where(input) + " threw " + e, e);
            }
            boolean outsideKubepods = !path.isRoot() && !path.segments().get(0).equals(driver.kubepodsName());
            boolean expectValid = untouched;
            Outcome o = guard(input, () -> {
                Optional<ContainerCgroup> c = naming.parse(path);
                if (c.isEmpty()) {
                    assertThat(expectValid)
                            .as(where(input) + " is the kubelet's own name")
                            .isFalse();
                    return Outcome.NOT_A_CONTAINER;
                }
                assertThat(naming.containerPath(c.get())).as(where(input)).isEqualTo(path);
                if (expectValid) {
                    assertThat(c.get()).as(where(input)).isEqualTo(valid);
                }
                return Outcome.PARSED;
            });
            if (o == Outcome.REFUSED) {
                assertThat(outsideKubepods)
                        .as(where(input) + ": outside kubepods is never an error")
                        .isFalse();
                String message = lastRefusal;
                assertThat(message)
                        .as(where(input))
                        .startsWith("cgroup "
                                + InvalidCgroupNameException.quote(path.toString())
                                        .substring(
                                                0, Math.min(40, path.toString().length())));
            }
            outcomes.computeIfAbsent(driver, d -> new EnumMap<>(Outcome.class)).merge(o, 1, Integer::sum);
        }
        System.out.println("  kubelet names: " + outcomes);
        for (Map<Outcome, Integer> perDriver : outcomes.values()) {
            assertThat(perDriver.keySet()).containsExactlyInAnyOrder(Outcome.values());
        }
    }

    @Test
    void podUidsAreAcceptedExactlyAsTheKubeletWritesThem() {
        printSeed("podUids");
        int accepted = 0;
        for (int i = 0; i < CASES; i++) {
            String uid = switch (rnd.nextInt(3)) {
                case 0 -> mutate(UUID.randomUUID().toString());
                case 1 -> mutate(hex(32));
                default -> randomText(40);
            };
            if (rnd.nextInt(4) == 0) {
                uid = rnd.nextBoolean() ? UUID.randomUUID().toString() : hex(32);
            }
            String input = uid;
            PodQos qos = PodQos.values()[rnd.nextInt(3)];
            CgroupNaming naming = new CgroupNaming(CgroupDriver.values()[rnd.nextInt(2)]);
            Outcome o = guard(input, () -> {
                CgroupPath pod = naming.podPath(qos, input);
                ContainerCgroup c = new ContainerCgroup(qos, input, new ContainerId(ContainerRuntime.CRIO, hex(64)));
                assertThat(naming.parse(pod)).as(where(input)).isEmpty();
                assertThat(naming.parse(naming.containerPath(c)))
                        .as(where(input))
                        .contains(c);
                assertThat(naming.containerPath(c).parent()).isEqualTo(pod);
                return Outcome.PARSED;
            });
            assertThat(o == Outcome.PARSED)
                    .as(where(input) + " accepted iff a lowercase UUID or 32 lowercase hex digits")
                    .isEqualTo(POD_UID.matcher(input).matches());
            if (o == Outcome.PARSED) {
                accepted++;
            }
        }
        assertThat(accepted).isPositive().isLessThan(CASES);
    }

    private String lastRefusal;

    /** Runs one parse: its outcome, REFUSED for a clear refusal; any other exception fails the test. */
    private Outcome guard(String input, Supplier<Outcome> parse) {
        try {
            return parse.get();
        } catch (InvalidCgroupNameException e) {
            assertThat(e.getMessage()).as(where(input)).isNotBlank();
            lastRefusal = e.getMessage();
            return Outcome.REFUSED;
        } catch (RuntimeException e) {
            fail(where(input) + " threw " + e, e);
            return null;
        }
    }

    private ContainerCgroup validContainer() {
        String uid = rnd.nextBoolean() ? new UUID(rnd.nextLong(), rnd.nextLong()).toString() : hex(32);
        return new ContainerCgroup(
                PodQos.values()[rnd.nextInt(3)],
                uid,
                new ContainerId(ContainerRuntime.values()[rnd.nextInt(2)], hex(64)));
    }

    private CgroupPath validContainerPath(CgroupDriver driver) {
        return new CgroupNaming(driver).containerPath(validContainer());
    }

    private String validContainerId() {
        return pick("containerd", "cri-o") + "://" + hex(64);
    }

    /** A name the kubelet or a runtime uses at some level, for either driver, well formed or nearly. */
    private String pieceFor(CgroupDriver driver, int level) {
        String uid = new UUID(rnd.nextLong(), rnd.nextLong()).toString();
        String id = hex(64);
        String piece = pick(
                "kubepods",
                "kubepods.slice",
                "burstable",
                "besteffort",
                "guaranteed",
                "kubepods-burstable.slice",
                "kubepods-besteffort.slice",
                "pod" + uid,
                "pod" + uid.replace('-', '_'),
                "kubepods-pod" + uid.replace('-', '_') + ".slice",
                "kubepods-burstable-pod" + uid.replace('-', '_') + ".slice",
                "kubepods-besteffort-pod" + uid + ".slice",
                "kubepods-pod.slice",
                "kubepods-burstable-pod_.slice",
                id,
                "crio-" + id,
                "crio-conmon-" + id,
                "cri-containerd-" + id + ".scope",
                "crio-" + id + ".scope",
                "crio-conmon-" + id + ".scope",
                "docker-" + id + ".scope",
                "cri-containerd-.scope",
                "crio-",
                ".scope",
                "pod");
        return rnd.nextInt(3) == 0 ? mutate(piece) : piece;
    }

    private String pick(String... choices) {
        return choices[rnd.nextInt(choices.length)];
    }

    private String hex(int digits) {
        byte[] b = new byte[(digits + 1) / 2];
        rnd.nextBytes(b);
        return HexFormat.of().formatHex(b).substring(0, digits);
    }

    private String randomText(int maxLength) {
        StringBuilder b = new StringBuilder();
        for (int i = 0, n = rnd.nextInt(maxLength + 1); i < n; i++) {
            b.append(ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    /** One to four single-character insertions, deletions or replacements, or a cut. */
    private String mutate(String s) {
        StringBuilder b = new StringBuilder(s);
        for (int k = 0, n = 1 + rnd.nextInt(4); k < n; k++) {
            int at = b.isEmpty() ? 0 : rnd.nextInt(b.length());
            char c = ALPHABET.charAt(rnd.nextInt(ALPHABET.length()));
            switch (b.isEmpty() ? 0 : rnd.nextInt(4)) {
                case 0 -> b.insert(at, c);
                case 1 -> b.deleteCharAt(at);
                case 2 -> b.setCharAt(at, c);
                default -> b.setLength(at);
            }
        }
        return b.toString();
    }
}
