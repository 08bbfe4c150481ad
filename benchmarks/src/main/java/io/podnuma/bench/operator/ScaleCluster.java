package io.podnuma.bench.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/** The bench's side of the cluster, through the admin client: it makes the nodes and policies and reads them back. */
final class ScaleCluster {

    static final String POLICY_LABEL = "podnuma.io/policy";
    private static final PatchContext MERGE =
            new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;

    ScaleCluster(KubernetesClient client) {
        this.client = client;
    }

    /** What creating the nodes cost: how long, and the JSON size of what was sent and of one node as stored. */
    record Created(int nodes, long millis, double averageSentBytes, int storedBytes) {}

    /** Creates {@code layout}'s nodes with {@code parallel} requests in flight. */
    Created createNodes(PoolLayout layout, int parallel, Instant now) throws Exception {
        AtomicLong bytes = new AtomicLong();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < layout.nodes(); i++) {
                int index = i;
                done.add(pool.submit(() -> {
                    Node node = NodePadding.node(
                            PoolLayout.nodeName(index),
                            index,
                            Map.of(PoolLayout.POOL_LABEL, PoolLayout.poolValue(layout.poolOf(index))),
                            now);
                    bytes.addAndGet(
                            client.getKubernetesSerialization().asJson(node).length());
                    client.nodes().resource(node).create();
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        Node stored = client.nodes().withName(PoolLayout.nodeName(0)).get();
        int storedBytes = client.getKubernetesSerialization().asJson(stored).length();
        return new Created(layout.nodes(), millis, bytes.get() / (double) layout.nodes(), storedBytes);
    }

    /** Creates the policies one after the other, in index order: the older of two overlapping ones wins ties. */
    void createPolicies(PoolLayout layout) {
        for (PoolLayout.PolicyPlan p : layout.policies()) {
            LabelSelector selector = p.pools().size() == 1
                    ? new LabelSelectorBuilder()
                            .addToMatchLabels(
                                    PoolLayout.POOL_LABEL, p.poolValues().getFirst())
                            .build()
                    : new LabelSelectorBuilder()
                            .addNewMatchExpression()
                            .withKey(PoolLayout.POOL_LABEL)
                            .withOperator("In")
                            .withValues(p.poolValues())
                            .endMatchExpression()
                            .build();
            client.resource(new NumaResourcePolicy(
                            p.name(),
                            new NumaResourcePolicySpec(selector, p.priority(), null, null, null, null, null, null)))
                    .create();
        }
    }

    /** One JSON merge patch per node, moving it to its pool in {@code layout}. */
    void relabel(PoolLayout layout, List<Integer> nodes) {
        for (int i : nodes) {
            String patch = "{\"metadata\":{\"labels\":{\"" + PoolLayout.POOL_LABEL + "\":\""
                    + PoolLayout.poolValue(layout.poolOf(i)) + "\"}}}";
            client.nodes().withName(PoolLayout.nodeName(i)).patch(MERGE, patch);
        }
    }

    /** One JSON merge patch of the policy's spec: a new generation whose agent config differs. */
    void changeSpec(String policy) {
        client.resources(NumaResourcePolicy.class)
                .withName(policy)
                .patch(MERGE, "{\"spec\":{\"admission\":\"Evict\"}}");
    }

    /** Policy name → (generation, status) as the API server has them now. */
    Map<String, PolicyState> policies() {
        Map<String, PolicyState> out = new TreeMap<>();
        for (NumaResourcePolicy p :
                client.resources(NumaResourcePolicy.class).list().getItems()) {
            out.put(p.getMetadata().getName(), new PolicyState(p.getMetadata().getGeneration(), p.getStatus()));
        }
        return out;
    }

    /**
     * Node name → its {@code podnuma.io/policy} label (absent: no entry), read as metadata only: the bench's own
     * check must not cost the API server (and the shared CPUs) 60 MB of JSON every time it looks.
     */
    Map<String, String> policyLabels() throws IOException {
        JsonNode list = getJson("/api/v1/nodes", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1");
        Map<String, String> out = new TreeMap<>();
        for (JsonNode item : list.path("items")) {
            JsonNode label = item.path("metadata").path("labels").path(POLICY_LABEL);
            if (!label.isMissingNode()) {
                out.put(item.path("metadata").path("name").asText(), label.asText());
            }
        }
        return out;
    }

    /** The API server's own {@code apiserver_request_total}. */
    ApiRequestCounts requestCounts() throws IOException {
        return ApiRequestCounts.parse(get("/metrics", "text/plain"));
    }

    private JsonNode getJson(String path, String accept) throws IOException {
        return JSON.readTree(get(path, accept));
    }

    private String get(String path, String accept) throws IOException {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(URI.create(client.getMasterUrl().toString().replaceAll("/$", "") + path))
                .header("Accept", accept)
                .build();
        try {
            HttpResponse<String> r = http.sendAsync(request, String.class).get(60, TimeUnit.SECONDS);
            if (r.code() != 200) {
                throw new IOException("GET " + path + ": HTTP " + r.code() + " " + r.body());
            }
            return r.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during GET " + path, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("GET " + path + ": " + e.getMessage(), e);
        }
    }
}
