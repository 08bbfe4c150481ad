package io.podnuma.bench.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.podnuma.bench.operator.ApiRequestCounts.Key;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiRequestCountsTest {

    /** As kube-apiserver v1.37 writes them: HELP/TYPE lines, other metrics around, codes and components apart. */
    private static final String BEFORE = """
            # HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, \
            dry run value, group, version, resource, scope, component, and HTTP response code.
            # TYPE apiserver_request_total counter
            apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="nodes",scope="resource",subresource="",verb="POST",version="v1"} 5000
            apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="nodes",scope="resource",subresource="",verb="PATCH",version="v1"} 3
            apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="nodes",scope="cluster",subresource="",verb="LIST",version="v1"} 12
            apiserver_request_total{code="200",component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1"} 40
            apiserver_request_total{code="409",component="apiserver",dry_run="",group="podnuma.io",resource="numaresourcepolicies",scope="resource",subresource="status",verb="APPLY",version="v1alpha1"} 1
            apiserver_request_total{code="200",component="apiserver",dry_run="",group="podnuma.io",resource="numaresourcepolicies",scope="resource",subresource="status",verb="APPLY",version="v1alpha1"} 2
            # HELP apiserver_request_duration_seconds [STABLE] Response latency distribution
            # TYPE apiserver_request_duration_seconds histogram
            apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="",resource="nodes",scope="resource",subresource="",verb="POST",version="v1",le="0.005"} 4000
            apiserver_request_total_other{verb="POST"} 9
            """;

    private static final String AFTER =
            BEFORE.replace("verb=\"PATCH\",version=\"v1\"} 3", "verb=\"PATCH\",version=\"v1\"} 5003")
                            .replace("verb=\"LIST\",version=\"v1\"} 12", "verb=\"LIST\",version=\"v1\"} 20")
                            .replace("verb=\"PUT\",version=\"v1\"} 40", "verb=\"PUT\",version=\"v1\"} 46")
                            .replace(
                                    "subresource=\"status\",verb=\"APPLY\",version=\"v1alpha1\"} 1",
                                    "subresource=\"status\",verb=\"APPLY\",version=\"v1alpha1\"} 4")
                            .replace(
                                    "subresource=\"status\",verb=\"APPLY\",version=\"v1alpha1\"} 2",
                                    "subresource=\"status\",verb=\"APPLY\",version=\"v1alpha1\"} 52")
                    + "apiserver_request_total{code=\"201\",component=\"apiserver\",dry_run=\"\",group=\"\",resource=\"events\","
                    + "scope=\"resource\",subresource=\"\",verb=\"POST\",version=\"v1\"} 7\n";

    private static final Key STATUS_APPLY = new Key("APPLY", "podnuma.io", "numaresourcepolicies", "status");
    private static final Key NODE_PATCH = new Key("PATCH", "", "nodes", "");

    @Test
    void samplesAreSummedOverCodesAndOtherMetricsSkipped() {
        ApiRequestCounts c = ApiRequestCounts.parse(BEFORE);
        assertThat(c.counts())
                .containsOnlyKeys(
                        new Key("POST", "", "nodes", ""),
                        NODE_PATCH,
                        new Key("LIST", "", "nodes", ""),
                        new Key("PUT", "coordination.k8s.io", "leases", ""),
                        STATUS_APPLY)
                .containsEntry(STATUS_APPLY, 3L)
                .containsEntry(new Key("POST", "", "nodes", ""), 5000L);
        assertThat(c.refused()).containsOnly(Map.entry(STATUS_APPLY, 1L));
    }

    @Test
    void writesOnTheOperatorsResourcesBetweenTwoReadings() {
        ApiRequestCounts d = ApiRequestCounts.parse(AFTER)
                .since(ApiRequestCounts.parse(BEFORE))
                .writesOn(Set.of("nodes", "numaresourcepolicies", "events"));
        // LIST is a read; leases are not the operator's here; the nodes' POSTs did not move.
        assertThat(d.counts())
                .containsOnly(
                        Map.entry(NODE_PATCH, 5000L),
                        Map.entry(STATUS_APPLY, 53L),
                        Map.entry(new Key("POST", "", "events", ""), 7L));
        assertThat(d.total()).isEqualTo(5060);
        assertThat(d.refusedTotal()).isEqualTo(3);
        assertThat(d.on("numaresourcepolicies")).isEqualTo(53);
        assertThat(d.describe())
                .isEqualTo(
                        "APPLY numaresourcepolicies.podnuma.io/status 53 (3 refused), PATCH nodes 5000, POST events 7");
        assertThat(d.minus(NODE_PATCH, 10).counts()).containsEntry(NODE_PATCH, 4990L);
        assertThat(d.minus(NODE_PATCH, 6000).counts()).doesNotContainKey(NODE_PATCH);
    }

    @Test
    void escapedLabelValuesAndNoChangeReadAsNone() {
        String text = "apiserver_request_total{code=\"200\",group=\"\",resource=\"con\\\"fig,maps\",subresource=\"\","
                + "verb=\"APPLY\"} 1.2e+01\n";
        ApiRequestCounts c = ApiRequestCounts.parse(text);
        assertThat(c.counts()).containsOnly(Map.entry(new Key("APPLY", "", "con\"fig,maps", ""), 12L));
        assertThat(c.since(c).describe()).isEqualTo("none");
    }

    @Test
    void aBrokenSampleNamesTheLine() {
        assertThatThrownBy(() -> ApiRequestCounts.parse("apiserver_request_total{verb=\"POST} 3\n"))
                .hasMessageContaining("unterminated label value of verb");
        assertThatThrownBy(() -> ApiRequestCounts.parse("apiserver_request_total{verb=\"POST\"} many\n"))
                .hasMessageContaining("no value in");
    }
}
