//go:build tools

// Package tools pins the upstream command this module builds; it is never compiled.
package tools

import _ "helm.sh/helm/v4/cmd/helm"
