//go:build tools

// Package tools pins the upstream commands this module builds; it is never compiled.
package tools

import (
	_ "github.com/prometheus/prometheus/cmd/prometheus"
	_ "github.com/prometheus/prometheus/cmd/promtool"
)
