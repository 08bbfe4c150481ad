package io.podnuma.agent.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.podresources.DomainSocketServer;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The coexistence question to a kubelet played by a real gRPC server on a real unix socket. */
class KubeletPolicyQueryTest {

    @TempDir
    Path dir;

    private Path socket() {
        return dir.resolve(KubeletFiles.KUBELET_SOCKET);
    }

    private KubeletPolicyQuery query(Duration timeout) {
        return new KubeletPolicyQuery(socket(), timeout, Duration.ofMillis(100));
    }

    @Test
    void aKubeletWithoutResourceManagersIsCompatible() throws Exception {
        try (FakeKubelet kubelet = FakeKubelet.start(socket()).answering(FakeKubelet.NONE);
                KubeletPolicyQuery query = query(Duration.ofSeconds(5))) {
            FileCheck check = query.check();

            assertThat(check.verdict()).isEqualTo(FileVerdict.COMPATIBLE);
            assertThat(check.file()).isEqualTo(socket());
            assertThat(check.message())
                    .isEqualTo(socket() + ": the kubelet offers no exclusive CPU and no NUMA memory block: its CPU"
                            + " and memory manager policies are none");
            assertThat(kubelet.calls).hasValue(1);
        }
    }

    @Test
    void theStaticCpuManagerIsAConflictThatSaysWhatToDo() throws Exception {
        try (FakeKubelet kubelet = FakeKubelet.start(socket()).answering(FakeKubelet.staticCpus(1, 2, 3, 5));
                KubeletPolicyQuery query = query(Duration.ofSeconds(5))) {
            FileCheck check = query.check();

            assertThat(check.verdict()).isEqualTo(FileVerdict.CONFLICT);
            assertThat(check.message())
                    .isEqualTo(socket() + ": the kubelet offers CPUs 1-3,5 for exclusive use"
                            + " (GetAllocatableResources): its CPU manager policy is static and it pins containers"
                            + " itself; set cpuManagerPolicy: none in the kubelet configuration, delete"
                            + " cpu_manager_state in the kubelet's root directory and restart the kubelet");
        }
    }

    @Test
    void theStaticMemoryManagerIsAConflictToo() throws Exception {
        try (FakeKubelet kubelet = FakeKubelet.start(socket()).answering(FakeKubelet.staticMemory(2));
                KubeletPolicyQuery query = query(Duration.ofSeconds(5))) {
            FileCheck check = query.check();

            assertThat(check.verdict()).isEqualTo(FileVerdict.CONFLICT);
            assertThat(check.message())
                    .contains("the kubelet offers 2 NUMA memory blocks (GetAllocatableResources): its memory manager"
                            + " policy is Static")
                    .contains("set memoryManagerPolicy: None in the kubelet configuration, delete"
                            + " memory_manager_state")
                    .doesNotContain("cpuManagerPolicy");
        }
    }

    @Test
    void theRunningKubeletIsAskedEachTimeSoARestartWithAnotherPolicyIsSeen() throws Exception {
        try (FakeKubelet kubelet = FakeKubelet.start(socket()).answering(FakeKubelet.NONE);
                KubeletPolicyQuery query = query(Duration.ofSeconds(5))) {
            assertThat(query.check().verdict()).isEqualTo(FileVerdict.COMPATIBLE);

            kubelet.answering(FakeKubelet.staticCpus(1));
            assertThat(query.check().verdict()).isEqualTo(FileVerdict.CONFLICT);

            kubelet.answering(FakeKubelet.NONE);
            assertThat(query.check().verdict()).isEqualTo(FileVerdict.COMPATIBLE);
            assertThat(kubelet.calls).hasValue(3);
        }
    }

    @Test
    void anAbsentSocketIsNotCheckedAndLetsTheAgentWrite() {
        try (KubeletPolicyQuery query = query(Duration.ofSeconds(5))) {
            FileCheck check = query.check();

            assertThat(check.verdict()).isEqualTo(FileVerdict.NOT_CHECKED);
            assertThat(check.message()).isEqualTo(socket() + ": not present");
            assertThat(new KubeletCheck(List.of(check)).agentMayWrite()).isTrue();
        }
    }

    @Test
    void aStaleSocketIsUnknownUntilAKubeletListensThereAgain() throws Exception {
        // What a killed kubelet leaves: the socket file, nobody accepting on it.
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket()));
        }
        assertThat(Files.exists(socket())).isTrue();
        try (KubeletPolicyQuery query = query(Duration.ofSeconds(5))) {
            FileCheck check = query.check();

            assertThat(check.verdict()).isEqualTo(FileVerdict.UNREADABLE);
            assertThat(check.message())
                    .startsWith(socket() + ": no kubelet answers on it (UNAVAILABLE")
                    .contains("the kubelet is stopped or restarting, or the socket is stale")
                    .endsWith("its CPU and memory manager policies are unknown, so the agent writes no cpuset until"
                            + " the kubelet answers");
            assertThat(new KubeletCheck(List.of(check)).agentMayWrite()).isFalse();

            // The kubelet starts again (it replaces the stale file): the next ticks dial it anew, without gRPC's
            // reconnect backoff (a tick waits only the grace for the new connection's answer, so allow a few).
            try (FakeKubelet kubelet = FakeKubelet.start(socket())) {
                FileCheck again = query.check();
                for (int tick = 0; tick < 20 && again.verdict() != FileVerdict.COMPATIBLE; tick++) {
                    TimeUnit.MILLISECONDS.sleep(100);
                    again = query.check();
                }
                assertThat(again.verdict()).isEqualTo(FileVerdict.COMPATIBLE);
                assertThat(kubelet.calls).hasValue(1);
            }
        }
    }

    @Test
    void aHungKubeletHoldsTheFirstQuestionForTheTimeoutOnlyAndLaterOnesForTheGrace() throws Exception {
        try (FakeKubelet kubelet = FakeKubelet.start(socket());
                KubeletPolicyQuery query = query(Duration.ofMillis(600))) {
            kubelet.hold();
            long started = System.nanoTime();
            FileCheck first = query.check();
            long firstMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(first.verdict()).isEqualTo(FileVerdict.UNREADABLE);
            assertThat(first.message())
                    .contains("the kubelet did not answer GetAllocatableResources within PT0.6S (kubeletCallTimeout)");
            assertThat(firstMs).isBetween(500L, 5_000L);

            kubelet.release();
            assertThat(query.check().verdict()).isEqualTo(FileVerdict.COMPATIBLE);

            // Hung again: each tick waits the grace and goes on with the last answer until the deadline passes.
            kubelet.hold();
            started = System.nanoTime();
            FileCheck meanwhile = query.check();
            long graceMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(meanwhile.verdict()).isEqualTo(FileVerdict.COMPATIBLE);
            assertThat(graceMs).isBetween(90L, 500L);
            TimeUnit.MILLISECONDS.sleep(700);
            assertThat(query.check().verdict()).isEqualTo(FileVerdict.UNREADABLE);
        }
    }

    @Test
    void aKubeletWithoutGetAllocatableResourcesSaysSo() throws Exception {
        try (DomainSocketServer nothing = DomainSocketServer.start(socket(), List.of());
                KubeletPolicyQuery query = query(Duration.ofSeconds(5))) {
            FileCheck check = query.check();

            assertThat(check.verdict()).isEqualTo(FileVerdict.UNREADABLE);
            assertThat(check.message())
                    .contains("the kubelet does not serve GetAllocatableResources (a kubelet before 1.23, or its"
                            + " feature gate KubeletPodResourcesGetAllocatable is off)");
        }
    }

    @Test
    void timeoutMustBePositive() {
        assertThatThrownBy(() -> new KubeletPolicyQuery(socket(), Duration.ZERO))
                .hasMessage("kubelet PodResources timeout PT0S must be positive, e.g. PT1S");
    }
}
