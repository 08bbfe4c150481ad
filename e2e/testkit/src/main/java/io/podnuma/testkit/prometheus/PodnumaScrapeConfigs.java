package io.podnuma.testkit.prometheus;

import java.nio.file.Path;

/**
 * The Prometheus {@code scrape_configs} a user without the Prometheus operator writes for a podnuma install: pods of the
 * release namespace found by Kubernetes service discovery, kept by their labels and the port named {@code metrics};
 * the agents (job {@code podnuma-agent}, the chart's alert rules select that job) with {@code node}, {@code policy}
 * (the dashboard's variables, as the chart's PodMonitor adds them) and {@code pod} labels, the operator replicas (job
 * {@code podnuma-operator}).
 */
public final class PodnumaScrapeConfigs {

    private PodnumaScrapeConfigs() {}

    /** The entries (a YAML list) for the chart's pods in {@code namespace}, discovered through {@code kubeconfig}. */
    public static String kubernetesPods(Path kubeconfig, String namespace) {
        return """
                - job_name: podnuma-agent
                  kubernetes_sd_configs:
                    - role: pod
                      kubeconfig_file: %1$s
                      namespaces: {names: [%2$s]}
                  relabel_configs:
                    - source_labels: [__meta_kubernetes_pod_label_app_kubernetes_io_name, __meta_kubernetes_pod_container_port_name]
                      regex: podnuma-agent;metrics
                      action: keep
                    - source_labels: [__meta_kubernetes_pod_name]
                      target_label: pod
                    - source_labels: [__meta_kubernetes_pod_node_name]
                      target_label: node
                    - source_labels: [__meta_kubernetes_pod_label_podnuma_io_policy]
                      target_label: policy
                    - source_labels: [__meta_kubernetes_namespace]
                      target_label: namespace
                - job_name: podnuma-operator
                  kubernetes_sd_configs:
                    - role: pod
                      kubeconfig_file: %1$s
                      namespaces: {names: [%2$s]}
                  relabel_configs:
                    - source_labels: [__meta_kubernetes_pod_label_app_kubernetes_io_component, __meta_kubernetes_pod_container_port_name]
                      regex: operator;metrics
                      action: keep
                    - source_labels: [__meta_kubernetes_pod_name]
                      target_label: pod
                    - source_labels: [__meta_kubernetes_namespace]
                      target_label: namespace
                """.formatted(kubeconfig, namespace);
    }
}
