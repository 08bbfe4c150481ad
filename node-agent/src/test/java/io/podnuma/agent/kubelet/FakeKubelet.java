package io.podnuma.agent.kubelet;

import io.grpc.stub.StreamObserver;
import io.podnuma.podresources.DomainSocketServer;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ContainerMemory;
import io.podnuma.podresources.v1.NUMANode;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import io.podnuma.podresources.v1.TopologyInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The kubelet's PodResources service on a real unix socket, as the coexistence check meets it: its
 * {@code GetAllocatableResources} answer is what the kubelet's managers would give (see {@link #NONE},
 * {@link #staticCpus}, {@link #staticMemory}), and {@link #hold()} makes it hang until {@link #release()}.
 */
public final class FakeKubelet extends PodResourcesListerGrpc.PodResourcesListerImplBase implements AutoCloseable {

    /** CPU manager none, memory manager None: no CPU and no memory block to hand out. */
    public static final AllocatableResourcesResponse NONE = AllocatableResourcesResponse.getDefaultInstance();

    /** The static CPU manager: every CPU but the reserved ones. */
    public static AllocatableResourcesResponse staticCpus(long... ids) {
        AllocatableResourcesResponse.Builder b = AllocatableResourcesResponse.newBuilder();
        for (long id : ids) {
            b.addCpuIds(id);
        }
        return b.build();
    }

    /** The Static memory manager: one block of regular memory per NUMA node. */
    public static AllocatableResourcesResponse staticMemory(int numaNodes) {
        AllocatableResourcesResponse.Builder b = AllocatableResourcesResponse.newBuilder();
        for (int n = 0; n < numaNodes; n++) {
            b.addMemory(ContainerMemory.newBuilder()
                    .setMemoryType("memory")
                    .setSize(1L << 30)
                    .setTopology(TopologyInfo.newBuilder()
                            .addNodes(NUMANode.newBuilder().setID(n))));
        }
        return b.build();
    }

    final AtomicInteger calls = new AtomicInteger();
    private volatile AllocatableResourcesResponse answer = NONE;
    private volatile CountDownLatch held = new CountDownLatch(0);
    private DomainSocketServer server;

    public static FakeKubelet start(Path socket) throws IOException {
        FakeKubelet kubelet = new FakeKubelet();
        kubelet.server = DomainSocketServer.start(socket, List.of(kubelet.bindService()));
        return kubelet;
    }

    public FakeKubelet answering(AllocatableResourcesResponse value) {
        answer = value;
        return this;
    }

    public void hold() {
        held = new CountDownLatch(1);
    }

    public void release() {
        held.countDown();
    }

    @Override
    public void getAllocatableResources(
            AllocatableResourcesRequest request, StreamObserver<AllocatableResourcesResponse> response) {
        calls.incrementAndGet();
        try {
            held.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        response.onNext(answer);
        response.onCompleted();
    }

    @Override
    public void close() {
        release();
        server.close();
    }
}
