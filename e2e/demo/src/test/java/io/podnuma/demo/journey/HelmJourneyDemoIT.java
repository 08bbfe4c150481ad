package io.podnuma.demo.journey;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.testkit.Repository;
import io.podnuma.testkit.cpu.CpuList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README demo's journey on the real node: checks what its pods table shows while pinned and after the uninstall
 * (not how it is printed).
 */
class HelmJourneyDemoIT {

    private static final Path HOST_CPUSET = Path.of("/sys/fs/cgroup/cpuset/cpuset.effective_cpus");

    @TempDir
    Path dir;

    @Test
    void installsPinsShowsAndGivesEveryCpuBack() throws Exception {
        HelmJourneyDemo demo = new HelmJourneyDemo(
                Repository.root(), dir, System.getProperty("podnuma.images.tag", "0.1.0-SNAPSHOT"), System.out);
        Optional<String> cannot = demo.unavailable();
        cannot.ifPresent(reason -> System.out.println("HelmJourneyDemoIT skipped: " + reason));
        Assumptions.assumeTrue(cannot.isEmpty(), () -> cannot.orElseThrow());
        CpuList host = CpuList.parse(Files.readString(HOST_CPUSET));
        Assumptions.assumeTrue(host.size() >= 2, "the quickstart reserves one CPU and pins a pod to another");

        HelmJourneyDemo.JourneyReport r = demo.run();

        List<ContainerRow> trader = rows(r.pinned(), "trader");
        assertThat(trader).extracting(ContainerRow::container).containsExactlyInAnyOrder("proxy", "engine");
        CpuList bubble = trader.get(0).cpus();
        assertThat(bubble.size()).isEqualTo(1);
        assertThat(trader).allSatisfy(c -> {
            assertThat(c.cpus()).isEqualTo(bubble);
            assertThat(c.pool()).isEqualTo("PodShared");
        });
        CpuList shared = host.minus(bubble);
        for (String pod : List.of("web", "trader-2")) {
            assertThat(rows(r.pinned(), pod)).allSatisfy(c -> {
                assertThat(c.cpus()).as("%s/%s", pod, c.container()).isEqualTo(shared);
                assertThat(c.pool()).isEqualTo("NodeShared");
            });
        }
        assertThat(r.restored()).hasSize(5).allSatisfy(c -> assertThat(c.cpus()).isEqualTo(host));
        Set<String> pools = r.restored().stream().map(ContainerRow::pool).collect(Collectors.toSet());
        assertThat(pools).containsExactly("none (not governed)");
        assertThat(r.install()).isPositive();
    }

    private static List<ContainerRow> rows(List<ContainerRow> rows, String pod) {
        return rows.stream().filter(c -> c.pod().equals(pod)).toList();
    }
}
