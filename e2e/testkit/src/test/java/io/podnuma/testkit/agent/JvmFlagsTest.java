package io.podnuma.testkit.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class JvmFlagsTest {

    @Test
    void theDaemonSetsFlagsAreTheFilesWithoutComments() {
        assertThat(JvmFlags.daemonSet())
                .containsExactly(
                        "-XX:+UseSerialGC",
                        "-Xms16m",
                        "-Xmx64m",
                        "-Xmn6m",
                        "-XX:MinHeapFreeRatio=10",
                        "-XX:MaxHeapFreeRatio=20",
                        "-XX:+UseCompactObjectHeaders",
                        "-Dio.grpc.netty.shaded.io.netty.allocator.type=unpooled",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:C1MaxInlineSize=15",
                        "-XX:C1InlineStackLimit=4",
                        "-XX:ReservedCodeCacheSize=32m",
                        "-XX:-UseCodeCacheFlushing",
                        "-Xss512k",
                        "-XX:-UsePerfData",
                        "-Djdk.reflect.useNativeAccessorOnly=true",
                        "-Djdk.tls.namedGroups=x25519,secp384r1,secp256r1,secp521r1,x448,ffdhe2048,ffdhe3072,ffdhe4096,"
                                + "ffdhe6144,ffdhe8192",
                        "-XX:+UnlockDiagnosticVMOptions",
                        "-XX:AsyncDeflationInterval=10000",
                        "--enable-native-access=ALL-UNNAMED",
                        "--sun-misc-unsafe-memory-access=allow");
    }

    @Test
    void commentsAndBlankLinesAreSkippedAndALineHoldsOneFlag() {
        assertThat(JvmFlags.parse(List.of("# heap", "", "-Xmx64m  # at most", "  -Xss512k"), "f"))
                .containsExactly("-Xmx64m", "-Xss512k");
        assertThatThrownBy(() -> JvmFlags.parse(List.of("-Xms16m -Xmx64m"), "f"))
                .hasMessageContaining("f line 1")
                .hasMessageContaining("not one flag");
        assertThatThrownBy(() -> JvmFlags.parse(List.of("#", "Xmx64m"), "f")).hasMessageContaining("f line 2");
    }

    @Test
    void withoutTheClassCacheEveryFlagThatNamesOrMapsOneIsGone() {
        List<String> flags = new java.util.ArrayList<>(List.of("-XX:+UseSerialGC", "-Xmx64m"));
        flags.addAll(JvmFlags.mappingAotCache("/opt/podnuma/node-agent.aot"));
        flags.addAll(List.of(
                "-XX:AOTMode=on",
                "-XX:AOTCacheOutput=/w/a.aot",
                "-XX:+AutoCreateSharedArchive",
                "-XX:SharedArchiveFile=/w/a.jsa",
                "-Xss512k"));
        assertThat(JvmFlags.mappingAotCache("/c.aot"))
                .containsExactly(
                        "-XX:AOTCache=/c.aot",
                        "-XX:+UnlockDiagnosticVMOptions",
                        "-XX:ArchiveRelocationMode=0",
                        "-XX:-AOTReplayTraining");
        assertThat(JvmFlags.withoutClassCache(flags)).containsExactly("-XX:+UseSerialGC", "-Xmx64m", "-Xss512k");
    }

    @Test
    void theDaemonSetsOwnDiagnosticFlagsStayWithoutTheClassCache() {
        List<String> flags = new java.util.ArrayList<>(JvmFlags.daemonSet());
        flags.addAll(JvmFlags.mappingAotCache("/opt/podnuma/node-agent.aot"));
        assertThat(JvmFlags.withoutClassCache(flags)).isEqualTo(JvmFlags.daemonSet());
        assertThat(JvmFlags.withoutClassCache(JvmFlags.daemonSet())).isEqualTo(JvmFlags.daemonSet());
    }
}
