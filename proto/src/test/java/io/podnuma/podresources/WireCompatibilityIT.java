package io.podnuma.podresources;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.podnuma.podresources.GoWireCheck.Report;
import io.podnuma.podresources.v1.ClaimResource;
import io.podnuma.podresources.v1.ContainerMemory;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesRequest;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.PodResourcesApi;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.podresources.v1.PodResourcesListerGrpc.PodResourcesListerBlockingStub;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-language wire compatibility with the kubelet: the Go program in {@code src/test/go/wirecheck}
 * uses the upstream generated types and gRPC stubs of {@code k8s.io/kubelet} v0.37.2. Both sides
 * build the same fixtures independently ({@link WireFixtures}, {@code fixtures.go}), then exchange
 * bytes, JSON and real gRPC calls over a unix socket in both directions.
 */
class WireCompatibilityIT {

    private static GoWireCheck wirecheck;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildGoSide() throws Exception {
        Path go = GoWireCheck.findGo().orElse(null);
        if (go == null) {
            String reason =
                    "skipped: no executable 'go' (-Dwirecheck.go, PATH, /usr/local/go/bin); the cross-language check"
                            + " needs Go 1.26+."
                            + " PodResourcesWireFormatTest and PodResourcesDescriptorTest still pin the encoding.";
            System.out.println("WireCompatibilityIT " + reason);
            Assumptions.abort(reason);
        }
        wirecheck = GoWireCheck.build(go, GoWireCheck.BASEDIR.resolve("target/wirecheck"));
    }

    @Test
    void theSchemaMatchesTheDescriptorCompiledIntoTheKubeletPackage() throws Exception {
        Report report = wirecheck.run("descriptor");
        DescriptorProtos.FileDescriptorProto.Builder upstreamProto = DescriptorProtos.FileDescriptorProto.newBuilder();
        JsonFormat.parser().merge(report.get("descriptor.json"), upstreamProto);
        FileDescriptor upstream = FileDescriptor.buildFrom(upstreamProto.build(), new FileDescriptor[0]);

        Map<String, String> ours = SchemaShape.of(PodResourcesApi.getDescriptor());
        assertThat(ours).containsKeys("v1.PodResources.cpu_ids", "v1.PodResources.memory", "v1.PodResourcesLister/Get");
        assertThat(SchemaShape.differences(ours, SchemaShape.of(upstream)))
                .as("our api.proto against upstream %s", report.get("descriptor.path"))
                .isEmpty();
    }

    @Test
    void bytesEncodedByTheKubeletTypesDecodeToTheJavaFixtures() throws Exception {
        Report written = wirecheck.run("encode", dir.toString());
        Map<String, Message> fixtures = WireFixtures.byName();
        assertThat(written.lines().keySet()).containsExactly("wrote");

        for (Map.Entry<String, Message> fixture : fixtures.entrySet()) {
            byte[] goBytes = Files.readAllBytes(dir.resolve(fixture.getKey() + ".bin"));
            Message decoded = fixture.getValue().getParserForType().parseFrom(goBytes);
            assertThat(decoded).as(fixture.getKey()).isEqualTo(fixture.getValue());
            assertThat(decoded.getUnknownFields().asMap()).as(fixture.getKey()).isEmpty();
            assertThat(goBytes)
                    .as("%s: Go and Java produce the same canonical bytes", fixture.getKey())
                    .isEqualTo(fixture.getValue().toByteArray());
        }

        ListPodResourcesResponse list =
                ListPodResourcesResponse.parseFrom(Files.readAllBytes(dir.resolve("list-response.bin")));
        assertPodLevelFieldsOfNumaDb(list.getPodResources(0));
        assertEdgeValues(list.getPodResources(2));
    }

    @Test
    void bytesEncodedInJavaDecodeInGoAsTheGoFixtures() throws Exception {
        for (Map.Entry<String, Message> fixture : WireFixtures.byName().entrySet()) {
            Path file = dir.resolve(fixture.getKey() + ".java.bin");
            Files.write(file, fixture.getValue().toByteArray());
            Report report = wirecheck.run("decode", fixture.getKey(), file.toString());
            assertGoSaw(report, fixture.getKey(), fixture.getValue());
            assertThat(report.get(fixture.getKey() + ".reencoded-identical"))
                    .as("Go re-encodes the Java bytes unchanged")
                    .isEqualTo("true");
        }
    }

    @Test
    void theKubeletGoClientReadsTheJavaServer() throws Exception {
        assumeEpoll();
        FixtureLister lister = new FixtureLister();
        try (DomainSocketServer server =
                DomainSocketServer.start(dir.resolve("java.sock"), List.of(lister.bindService()))) {
            Report report = wirecheck.run("client", server.socket().toString());

            assertGoSaw(report, "List", WireFixtures.listResponse());
            assertGoSaw(report, "Get", WireFixtures.getResponse());
            assertGoSaw(report, "GetAllocatableResources", WireFixtures.allocatableResponse());
            assertThat(report.get("Get-absent.code")).isEqualTo("NotFound");

            ListPodResourcesResponse listAsGoSawIt =
                    parseJson(report.get("List.json"), ListPodResourcesResponse.newBuilder());
            assertPodLevelFieldsOfNumaDb(listAsGoSawIt.getPodResources(0));
            assertEdgeValues(listAsGoSawIt.getPodResources(2));
        }
        assertThat(lister.getRequests)
                .as("the Go client's Get requests as the Java server decoded them")
                .containsExactly(
                        WireFixtures.getRequest(),
                        GetPodResourcesRequest.newBuilder()
                                .setPodName("absent")
                                .setPodNamespace("prod")
                                .build());
    }

    @Test
    void theJavaClientReadsTheKubeletGoServer() throws Exception {
        assumeEpoll();
        Path socket = dir.resolve("go.sock");
        Process server = wirecheck.start("server", socket.toString());
        BufferedReader stdout =
                new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        try {
            String firstLine =
                    CompletableFuture.supplyAsync(() -> readLine(stdout)).get(60, TimeUnit.SECONDS);
            assertThat(firstLine).isEqualTo("listening " + socket);

            ManagedChannel channel = DomainSocketChannels.open(socket);
            try {
                PodResourcesListerBlockingStub stub =
                        PodResourcesListerGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
                ListPodResourcesResponse list = stub.list(ListPodResourcesRequest.getDefaultInstance());
                assertThat(list).isEqualTo(WireFixtures.listResponse());
                assertThat(list.getPodResources(0).getUnknownFields().asMap()).isEmpty();
                assertPodLevelFieldsOfNumaDb(list.getPodResources(0));
                assertEdgeValues(list.getPodResources(2));
                WireFixtures.assertGetAndAllocatable(stub);
            } finally {
                channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        } finally {
            server.getOutputStream().close();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
        Report received = Report.parse(stdout.lines().reduce("", (a, b) -> a + b + "\n"));
        assertThat(server.exitValue()).isZero();
        assertGoSaw(received, "received-Get", WireFixtures.getRequest());
        assertThat(received.all("received-Get.json"))
                .as("both Get requests of the Java client, as the kubelet types decoded them")
                .hasSize(2);
        GetPodResourcesRequest secondGet =
                parseJson(received.all("received-Get.json").get(1), GetPodResourcesRequest.newBuilder());
        assertThat(secondGet)
                .isEqualTo(GetPodResourcesRequest.newBuilder()
                        .setPodName("absent")
                        .setPodNamespace("prod")
                        .build());
        assertThat(received.get("received-List.unknown-fields")).startsWith("0 ");
        assertThat(received.get("received-GetAllocatableResources.unknown-fields"))
                .startsWith("0 ");
    }

    /** The 1.37 pod-level fields, checked one by one so a failure names the field. */
    private static void assertPodLevelFieldsOfNumaDb(PodResources pod) {
        assertThat(pod.getName()).isEqualTo("numa-db");
        assertThat(pod.getCpuIdsList()).containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(pod.getMemoryList())
                .extracting(
                        ContainerMemory::getMemoryType,
                        ContainerMemory::getSize,
                        m -> m.getTopology().getNodesList().size())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("memory", 8 * WireFixtures.GIB, 1),
                        org.assertj.core.groups.Tuple.tuple("hugepages-2Mi", WireFixtures.GIB, 1));
        assertThat(pod.getContainersList())
                .extracting(c -> c.getName() + "=" + c.getCpuIdsList())
                .containsExactly("sidecar-a=[2]", "main=[3, 4, 5, 6, 7, 8]", "logger=[]");
        ClaimResource gpu = pod.getContainers(1).getDynamicResources(0).getClaimResources(0);
        assertThat(gpu.getCdiDevicesList())
                .extracting(d -> d.getName())
                .containsExactly("example.com/gpu=gpu0", "example.com/gpu=gpu0-mig");
        assertThat(gpu.hasShareId()).isTrue();
        assertThat(gpu.getShareId()).isEqualTo("4f1c-share");
        assertThat(pod.getContainers(1)
                        .getDynamicResources(0)
                        .getClaimResources(1)
                        .hasShareId())
                .isFalse();
        assertThat(pod.getContainers(1).getDevices(0).getDeviceIdsList()).containsExactly("vf-0", "vf-1");
    }

    private static void assertEdgeValues(PodResources pod) {
        assertThat(pod.getName()).isEqualTo("edge-ü");
        assertThat(pod.getCpuIdsList()).containsExactly(0L, 1L << 40, -1L);
        assertThat(Long.toUnsignedString(pod.getMemory(0).getSize())).isEqualTo("18446744073709551615");
        assertThat(pod.getMemory(0).getTopology().getNodesList())
                .extracting(n -> n.getID())
                .containsExactly(1L << 33, -7L);
        ClaimResource claim = pod.getContainers(0).getDynamicResources(0).getClaimResources(0);
        assertThat(claim.hasShareId())
                .as("an empty share id is present, not absent")
                .isTrue();
        assertThat(claim.getShareId()).isEmpty();
    }

    /** Go found no unknown fields, found the message equal to its own fixture, and its JSON reads back equal. */
    private static void assertGoSaw(Report report, String prefix, Message javaFixture)
            throws InvalidProtocolBufferException {
        assertThat(report.get(prefix + ".unknown-fields"))
                .as("%s: fields the kubelet types did not recognise", prefix)
                .startsWith("0 ");
        assertThat(report.get(prefix + ".equals-go-fixture"))
                .as("%s equals the Go fixture", prefix)
                .isEqualTo("true");
        Message fromJson = parseJson(report.get(prefix + ".json"), javaFixture.newBuilderForType());
        assertThat(fromJson).as("%s as Go printed it", prefix).isEqualTo(javaFixture);
    }

    @SuppressWarnings("unchecked")
    private static <M extends Message> M parseJson(String json, Message.Builder builder)
            throws InvalidProtocolBufferException {
        // The default parser rejects unknown JSON names, so a renamed field fails here too.
        JsonFormat.parser().merge(json, builder);
        return (M) builder.build();
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assumeEpoll() {
        Assumptions.assumeTrue(
                Epoll.isAvailable(),
                () -> "skipped: Netty epoll is unavailable (" + Epoll.unavailabilityCause()
                        + "); the byte-level checks in this class still ran");
    }
}
