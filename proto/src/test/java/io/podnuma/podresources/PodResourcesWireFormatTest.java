package io.podnuma.podresources;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ClaimResource;
import io.podnuma.podresources.v1.ContainerMemory;
import io.podnuma.podresources.v1.ContainerResources;
import io.podnuma.podresources.v1.DynamicResource;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.NUMANode;
import io.podnuma.podresources.v1.PodResources;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Round trips of the Java messages, and byte-level pins of the encoding worked out by hand from the
 * protobuf wire format (tag = field number << 3 | wire type), independent of any other implementation.
 */
class PodResourcesWireFormatTest {

    private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

    static Iterable<Map.Entry<String, Message>> fixtures() {
        return WireFixtures.byName().entrySet();
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void fixtureSurvivesARoundTrip(Map.Entry<String, Message> fixture) throws InvalidProtocolBufferException {
        Message original = fixture.getValue();
        Message parsed = original.getParserForType().parseFrom(original.toByteArray());
        assertThat(parsed).isEqualTo(original);
        assertThat(parsed.toByteString()).isEqualTo(original.toByteString());
    }

    @Test
    void podLevelCpuIdsAreFieldFourPacked() {
        PodResources pod = PodResources.newBuilder().addCpuIds(2).addCpuIds(3).build();
        assertThat(hex(pod)).isEqualTo("22 02 02 03");
    }

    @Test
    void podLevelMemoryIsFieldFive() {
        PodResources pod = PodResources.newBuilder()
                .addMemory(ContainerMemory.newBuilder().setMemoryType("m"))
                .build();
        assertThat(hex(pod)).isEqualTo("2a 03 0a 01 6d");
    }

    @Test
    void containerCpuIdsAreFieldThreeAndAllocatableCpuIdsFieldTwo() {
        assertThat(hex(ContainerResources.newBuilder().addCpuIds(5).build())).isEqualTo("1a 01 05");
        assertThat(hex(AllocatableResourcesResponse.newBuilder().addCpuIds(1).build()))
                .isEqualTo("12 01 01");
    }

    @Test
    void getRequestCarriesNameThenNamespace() {
        GetPodResourcesRequest request = GetPodResourcesRequest.newBuilder()
                .setPodName("a")
                .setPodNamespace("b")
                .build();
        assertThat(hex(request)).isEqualTo("0a 01 61 12 01 62");
    }

    @Test
    void sizeIsUnsignedSixtyFourBit() throws InvalidProtocolBufferException {
        ContainerMemory huge =
                ContainerMemory.newBuilder().setSize(WireFixtures.MAX_UINT64).build();
        assertThat(hex(huge)).isEqualTo("10 ff ff ff ff ff ff ff ff ff 01");
        long parsed = ContainerMemory.parseFrom(huge.toByteArray()).getSize();
        assertThat(Long.toUnsignedString(parsed)).isEqualTo("18446744073709551615");
    }

    @Test
    void numaIdIsPlainInt64NotZigZag() {
        // sint64 would encode -1 as the single byte 01; int64 takes ten bytes.
        assertThat(hex(NUMANode.newBuilder().setID(-1).build())).isEqualTo("08 ff ff ff ff ff ff ff ff ff 01");
        assertThat(hex(NUMANode.newBuilder().setID(1).build())).isEqualTo("08 01");
    }

    @Test
    void anEmptyShareIdIsStillSent() {
        assertThat(hex(ClaimResource.newBuilder().setShareId("").build())).isEqualTo("2a 00");
        assertThat(hex(ClaimResource.newBuilder().setDeviceName("").build())).isEmpty();
    }

    @Test
    void unpackedCpuIdsFromOlderEncodersAreAccepted() throws InvalidProtocolBufferException {
        // Field 4 as two separate varints (wire type 0) instead of one packed run.
        PodResources pod = PodResources.parseFrom(bytes("20 02 20 03"));
        assertThat(pod.getCpuIdsList()).containsExactly(2L, 3L);
    }

    @Test
    void theRetiredClassNameFieldIsNotReadIntoAnyField() throws InvalidProtocolBufferException {
        // Field 1 "gpu" as an old kubelet would send it, then claim_name "c".
        DynamicResource resource = DynamicResource.parseFrom(bytes("0a 03 67 70 75 12 01 63"));
        assertThat(resource.getClaimName()).isEqualTo("c");
        assertThat(resource.getUnknownFields().hasField(1)).isTrue();
        assertThat(resource.getUnknownFields().getField(1).getLengthDelimitedList())
                .containsExactly(ByteString.copyFromUtf8("gpu"));
    }

    private static String hex(Message message) {
        return HEX.formatHex(message.toByteArray());
    }

    private static byte[] bytes(String hex) {
        return HEX.parseHex(hex);
    }
}
