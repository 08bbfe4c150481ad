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
{{ include "podnuma.secureMetrics.operatorSettings" . }}
{{- end }}

{{/* Where the PrometheusRule and the dashboard ConfigMap go: their own namespace value, else the release's. */}}
{{- define "podnuma.monitoring.namespace" -}}
{{- $root := index . 0 -}}
{{- default (include "podnuma.namespace" $root) (index . 1) -}}
{{- end }}

{{/*
The operator's and the agents' metrics security (metrics.secure), in the operator's settings file. The certificate
Secret is mounted into the operator at podnuma.secureMetrics.tlsDir; the operator mounts it into the agents itself.
*/}}
{{- define "podnuma.secureMetrics.tlsDir" -}}
/run/podnuma/metrics-tls
{{- end }}
{{- define "podnuma.secureMetrics.scraperName" -}}
{{- printf "%s-metrics-scraper" (include "podnuma.fullname" . | trunc 46 | trimSuffix "-") }}
{{- end }}
{{- define "podnuma.secureMetrics.readerName" -}}
{{- printf "%s-metrics-reader" (include "podnuma.fullname" . | trunc 47 | trimSuffix "-") }}
{{- end }}
{{- define "podnuma.secureMetrics.operatorSettings" -}}
{{- $s := .Values.metrics.secure -}}
{{- $scheme := ternary "https" "http" $s.enabled -}}
metricsSecurity: {{ $scheme | quote }}
agentMetricsSecurity: {{ $scheme | quote }}
{{- if $s.enabled }}
metricsAuthCacheTtl: {{ $s.authCacheTtl | quote }}
agentMetricsAuthCacheTtl: {{ $s.authCacheTtl | quote }}
agentMetricsScrapeTokenSecret: {{ include "podnuma.secureMetrics.scraperName" . | quote }}
{{- with $s.certSecret }}
metricsCertFile: {{ printf "%s/tls.crt" (include "podnuma.secureMetrics.tlsDir" $) | quote }}
metricsKeyFile: {{ printf "%s/tls.key" (include "podnuma.secureMetrics.tlsDir" $) | quote }}
agentMetricsCertSecret: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/*
What a monitor endpoint adds for https: the scheme, the scraper's token from its Secret, and how the server is
verified (against the certificate Secret's ca.crt for serverName, or not at all for a self-signed certificate).
Call with (list $ "<serverName>").
*/}}
{{- define "podnuma.secureMetrics.endpoint" -}}
{{- $root := index . 0 -}}
{{- $s := $root.Values.metrics.secure -}}
{{- if $s.enabled }}
scheme: https
authorization:
  type: Bearer
  credentials:
    name: {{ include "podnuma.secureMetrics.scraperName" $root }}
    key: token
tlsConfig:
{{- if $s.certSecret }}
  ca:
    secret:
      name: {{ $s.certSecret }}
      key: ca.crt
  serverName: {{ index . 1 }}
{{- else }}
  insecureSkipVerify: true
{{- end }}
{{- end }}
{{- end }}

{{/* What a process serving /metrics over https asks the API server about each new scrape token. */}}
{{- define "podnuma.secureMetrics.reviewRules" -}}
# metrics.secure: who a scrape's token is (TokenReview) and whether it may get /metrics (SubjectAccessReview).
- apiGroups: ["authentication.k8s.io"]
  resources: ["tokenreviews"]
  verbs: ["create"]
- apiGroups: ["authorization.k8s.io"]
  resources: ["subjectaccessreviews"]
  verbs: ["create"]
{{- end }}
