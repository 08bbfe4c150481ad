package io.podnuma.agent.nri.mux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.agent.nri.ttrpc.TtrpcFrame;
import io.podnuma.agent.nri.ttrpc.TtrpcFrameType;
import io.podnuma.agent.nri.ttrpc.TtrpcFrames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MuxTest {

    @TempDir
    Path dir;

    @Test
    void headerIsConnThenLengthBigEndian() {
        assertThat(HexFormat.of().formatHex(new MuxHeader(2, 0x0102).bytes())).isEqualTo("0000000200000102");
        assertThat(MuxHeader.decode(HexFormat.of().parseHex("00000001ffffffff")))
                .isEqualTo(new MuxHeader(1, 0xFFFF_FFFFL));
        assertThat(MuxHeader.MAX_PAYLOAD).isEqualTo(4 * 1024 * 1024 + 10);
    }

    @ParameterizedTest(name = "{0} bytes → {1}")
    @CsvSource(
            delimiter = ';',
            value = {
                "1; 1",
                "100; 100",
                "4096; 4096",
                "4097; 4096 1",
                "10240; 4096 6144",
                "4194314; 4096 4190218",
            })
    void goSplitIsOneFrameUpTo4096ThenTheRest(int length, String sizes) {
        List<Integer> expected =
                Arrays.stream(sizes.split(" ")).map(Integer::parseInt).toList();
        assertThat(GoWriteSplit.frameSizes(length)).isEqualTo(expected);
    }

    @Test
    void aTenKilobyteMessageGoesOutAsFramesOf4096AndTheRest() throws Exception {
        try (SocketPair pair = SocketPair.open(dir);
                Mux mux = new Mux(pair.left(), "test").start()) {
            byte[] message = new byte[10 * 1024];
            for (int i = 0; i < message.length; i++) {
                message[i] = (byte) i;
            }
            mux.send(MuxChannel.RUNTIME_SERVICE, message);

            MuxHeader first = MuxHeader.decode(SocketPair.readExactly(pair.right(), 8));
            byte[] firstPayload = SocketPair.readExactly(pair.right(), (int) first.length());
            MuxHeader second = MuxHeader.decode(SocketPair.readExactly(pair.right(), 8));
            byte[] secondPayload = SocketPair.readExactly(pair.right(), (int) second.length());

            assertThat(first).isEqualTo(new MuxHeader(2, 4096));
            assertThat(second).isEqualTo(new MuxHeader(2, 10 * 1024 - 4096));
            assertThat(ByteBuffer.allocate(message.length)
                            .put(firstPayload)
                            .put(secondPayload)
                            .array())
                    .isEqualTo(message);
        }
    }

    @Test
    void aTtrpcFrameSpreadOverThreeMuxFramesIsReassembled() throws Exception {
        try (SocketPair pair = SocketPair.open(dir);
                Mux mux = new Mux(pair.left(), "test").start()) {
            byte[] data = "the whole request, in pieces".getBytes();
            byte[] frame = TtrpcFrames.encode(new TtrpcFrame(7, TtrpcFrameType.REQUEST, 0, data));
            // cut inside the ttrpc header, then inside the data
            int[] cuts = {0, 6, 15, frame.length};
            for (int i = 0; i < 3; i++) {
                byte[] piece = Arrays.copyOfRange(frame, cuts[i], cuts[i + 1]);
                SocketPair.writeAll(pair.right(), new MuxHeader(1, piece.length).bytes());
                SocketPair.writeAll(pair.right(), piece);
            }

            TtrpcFrame read =
                    TtrpcFrames.read(mux.input(MuxChannel.PLUGIN_SERVICE)).orElseThrow();

            assertThat(read.streamId()).isEqualTo(7);
            assertThat(read.type()).isEqualTo(TtrpcFrameType.REQUEST);
            assertThat(read.payload()).isEqualTo(data);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            value = {
                "reserved conn 0; 0000000000000004; reserved conn 0",
                "unknown conn; 0000000700000004; unknown conn 7",
                "garbage header; 4741524241474521; unknown conn 1195463234",
                "length over the limit; 00000001ffffffff; over the 4194314-byte limit",
            })
    void aFrameNoNriPeerSendsClosesTheTrunk(String what, String header, String reason) throws Exception {
        try (SocketPair pair = SocketPair.open(dir);
                Mux mux = new Mux(pair.left(), "test").start()) {
            SocketPair.writeAll(pair.right(), HexFormat.of().parseHex(header));

            assertThat(mux.closed().get(5, TimeUnit.SECONDS))
                    .contains("protocol error")
                    .contains(reason);
            assertThat(mux.input(MuxChannel.PLUGIN_SERVICE).read()).isEqualTo(-1);
            assertThat(pair.right().read(ByteBuffer.allocate(1)))
                    .as("the peer sees the close")
                    .isEqualTo(-1);
            assertThatThrownBy(() -> mux.send(MuxChannel.PLUGIN_SERVICE, new byte[] {1}))
                    .isInstanceOf(MuxClosedException.class);
        }
    }

    @Test
    void moreThan256UnreadFramesOnAConnCloseTheTrunk() throws Exception {
        try (SocketPair pair = SocketPair.open(dir);
                Mux mux = new Mux(pair.left(), "test").start()) {
            for (int i = 0; i <= Mux.QUEUE_FRAMES; i++) {
                SocketPair.writeAll(pair.right(), new MuxHeader(2, 1).bytes());
                SocketPair.writeAll(pair.right(), new byte[] {(byte) i});
            }

            assertThat(mux.closed().get(5, TimeUnit.SECONDS)).contains("256 frames on conn 2 wait unread");
        }
    }

    @Test
    void thePeerClosingEndsBothStreams() throws Exception {
        try (SocketPair pair = SocketPair.open(dir);
                Mux mux = new Mux(pair.left(), "test").start()) {
            SocketPair.writeAll(pair.right(), new MuxHeader(1, 2).bytes());
            SocketPair.writeAll(pair.right(), new byte[] {42, 43});
            pair.right().close();

            assertThat(mux.closed().get(5, TimeUnit.SECONDS)).isEqualTo("the peer closed the connection");
            assertThat(mux.input(MuxChannel.PLUGIN_SERVICE).readAllBytes()).containsExactly(42, 43);
            assertThat(mux.input(MuxChannel.RUNTIME_SERVICE).read()).isEqualTo(-1);
        }
    }

    /**
     * The NRI Shutdown race: the peer answers and hangs up, and a write of ours meets the hang-up before our reader
     * has read the answer (the reader is started only after the write here, so the order is fixed).
     */
    @Test
    void aWriteThatMeetsTheHangUpLosesNothingThePeerSentBefore() throws Exception {
        try (SocketPair pair = SocketPair.open(dir);
                Mux mux = new Mux(pair.left(), "test")) {
            SocketPair.writeAll(pair.right(), new MuxHeader(1, 3).bytes());
            SocketPair.writeAll(pair.right(), new byte[] {7, 8, 9});
            pair.right().close();

            assertThatThrownBy(() -> mux.send(MuxChannel.RUNTIME_SERVICE, new byte[] {1}))
                    .isInstanceOf(MuxClosedException.class)
                    .hasMessageContaining("write failed");
            mux.start();

            assertThat(mux.input(MuxChannel.PLUGIN_SERVICE).readAllBytes()).containsExactly(7, 8, 9);
            assertThat(mux.closed().get(5, TimeUnit.SECONDS)).startsWith("write to the trunk failed");
            assertThat(mux.input(MuxChannel.RUNTIME_SERVICE).read()).isEqualTo(-1);
        }
    }

    @Test
    void aPeerThatStopsReadingButNotWritingIsClosedAfterTheDrainLimit() throws Exception {
        try (SocketPair pair = SocketPair.open(dir);
                Mux mux = new Mux(pair.left(), "test").start()) {
            pair.right().shutdownInput();

            assertThatThrownBy(() -> mux.send(MuxChannel.RUNTIME_SERVICE, new byte[] {1}))
                    .isInstanceOf(MuxClosedException.class);
            assertThat(mux.isClosed()).as("draining, not closed yet").isFalse();
            assertThatThrownBy(() -> mux.send(MuxChannel.RUNTIME_SERVICE, new byte[] {2}))
                    .as("no send after a failed one")
                    .isInstanceOf(MuxClosedException.class)
                    .hasMessageContaining("closing");

            assertThat(mux.closed().get(Mux.DRAIN_LIMIT.toMillis() + 5_000, TimeUnit.MILLISECONDS))
                    .startsWith("write to the trunk failed");
            assertThat(pair.right().read(ByteBuffer.allocate(1)))
                    .as("the peer sees the close")
                    .isEqualTo(-1);
        }
    }

    @Test
    void sendsFromManyThreadsNeverInterleave() throws Exception {
        try (SocketPair pair = SocketPair.open(dir);
                Mux mux = new Mux(pair.left(), "test").start();
                Mux peer = new Mux(pair.right(), "peer").start()) {
            int senders = 8;
            int size = 9000; // two frames each
            List<Thread> threads = new java.util.ArrayList<>();
            for (int s = 0; s < senders; s++) {
                byte fill = (byte) s;
                threads.add(Thread.ofVirtual().start(() -> {
                    byte[] m = new byte[size];
                    Arrays.fill(m, fill);
                    try {
                        mux.send(MuxChannel.PLUGIN_SERVICE, m);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            var in = peer.input(MuxChannel.PLUGIN_SERVICE);
            java.util.Set<Byte> seen = new java.util.HashSet<>();
            for (int s = 0; s < senders; s++) {
                byte[] m = in.readNBytes(size);
                assertThat(m).hasSize(size);
                byte first = m[0];
                for (byte b : m) {
                    assertThat(b).isEqualTo(first);
                }
                seen.add(first);
            }
            assertThat(seen).hasSize(senders);
        }
    }
}
