{{/*
The operator settings the monitoring values decide, included in the operator's settings file
(podnuma.operatorSettings). The operator renders a ServiceMonitor per policy for its agents only with the
ServiceMonitor on and no PodMonitor: a PodMonitor selects every agent pod itself, and two monitors would scrape each
agent twice.
*/}}
{{- define "podnuma.monitoring.operatorSettings" -}}
{{- $m := .Values.metrics -}}
agentServiceMonitor: {{ and $m.serviceMonitor.enabled (not $m.podMonitor.enabled) | quote }}
serviceMonitorLabels: {{- if $m.serviceMonitor.labels }}
{{ toYaml $m.serviceMonitor.labels | indent 2 }}
{{- else }} {}
{{- end }}
{{- end }}

{{/* Where the PrometheusRule and the dashboard ConfigMap go: their own namespace value, else the release's. */}}
{{- define "podnuma.monitoring.namespace" -}}
{{- $root := index . 0 -}}
{{- default $root.Release.Namespace (index . 1) -}}
{{- end }}
