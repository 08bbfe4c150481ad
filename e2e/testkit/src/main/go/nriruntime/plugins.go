package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/containerd/nri/pkg/api"
)

// The adaptation has no public list of its plugins. What it does expose: its Metrics interface (called with the
// plugin's name for every Synchronize message) and its log, whose messages for "connected and synchronized" (after
// the plugin joined the invocation list) and "connection closed" (when the ttrpc connection ends, for whatever
// reason) are the exact moments a plugin comes and goes. The harness hooks both (the Metrics part is in version.go:
// v0.8 has none and counts Synchronize messages from the debug log). These format strings are those of nri v0.12.3
// and v0.8.0 (pkg/adaptation adaptation.go, plugin.go); a version that rewords them makes await-plugins time out,
// which the test kit's IT would show.
const (
	connectedFormat   = "plugin %q connected and synchronized"
	closedFormat      = "connection to plugin %q closed"
	startFailedFormat = "failed to start external plugin: %v"
	// Logged before each Synchronize message; counted where the adaptation has no Metrics (syncFromLog).
	syncMessageFormat = "sending sync message, %d/%d, %d/%d (more: %v)"
	syncingFormat     = "synchronizing plugin %s"
)

// registration is one plugin connection the adaptation went through: how its Synchronize went.
type registration struct {
	Plugin string `json:"plugin"`
	// SyncMessages counts the Synchronize requests the plugin answered (more than one: a split sync).
	SyncMessages int `json:"syncMessages"`
	// OversizedAttempts counts the Synchronize messages ttrpc refused to send as too large (the adaptation then
	// retries with fewer objects per message).
	OversizedAttempts int               `json:"oversizedAttempts"`
	Pods              int               `json:"pods"`
	Containers        int               `json:"containers"`
	Updates           []json.RawMessage `json:"updates"`
	Error             string            `json:"error,omitempty"`
}

type pluginRegistry struct {
	mu            sync.Mutex
	live          map[string]bool
	registrations []*registration
	syncing       *registration
	changed       chan struct{}
}

func newPluginRegistry() *pluginRegistry {
	return &pluginRegistry{live: map[string]bool{}, changed: make(chan struct{})}
}

// notifyLocked wakes every waiter; the caller holds mu.
func (r *pluginRegistry) notifyLocked() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// beginSync is called by the runtime's sync function before it hands the state to a new plugin.
func (r *pluginRegistry) beginSync(pods, containers int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.syncing = &registration{Pods: pods, Containers: containers, Updates: []json.RawMessage{}}
}

func (r *pluginRegistry) endSync(updates []*api.ContainerUpdate, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.syncing == nil {
		return
	}
	if r.syncing.Plugin == "" && err == nil {
		// the adaptation's start-up sync of pre-installed plugins, of which the harness has none
		r.syncing = nil
		return
	}
	r.syncing.Updates = protoJSONList(updates)
	if err != nil {
		r.syncing.Error = err.Error()
	}
	r.registrations = append(r.registrations, r.syncing)
	r.syncing = nil
	r.notifyLocked()
}

// syncingPlugin names the plugin being synchronized (the adaptation logs it before the first message).
func (r *pluginRegistry) syncingPlugin(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.syncing != nil {
		r.syncing.Plugin = name
	}
}

// syncMessage counts one Synchronize message sent to the plugin being synchronized.
func (r *pluginRegistry) syncMessage() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.syncing != nil {
		r.syncing.SyncMessages++
	}
}

func (r *pluginRegistry) failedBeforeSync(err string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.registrations = append(r.registrations, &registration{Error: err, Updates: []json.RawMessage{}})
	r.notifyLocked()
}

func (r *pluginRegistry) setLive(name string, live bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if live {
		r.live[name] = true
	} else {
		delete(r.live, name)
	}
	r.notifyLocked()
}

type pluginView struct {
	plugins       []string
	registrations []registration
	succeeded     int
}

func (r *pluginRegistry) viewLocked() pluginView {
	v := pluginView{plugins: []string{}, registrations: []registration{}}
	for name := range r.live {
		v.plugins = append(v.plugins, name)
	}
	sort.Strings(v.plugins)
	for _, reg := range r.registrations {
		v.registrations = append(v.registrations, *reg)
		if reg.Error == "" {
			v.succeeded++
		}
	}
	return v
}

// await waits until at least count plugins are connected, none of without is, and at least registrations syncs
// succeeded since the start, or timeout; it returns what there is either way, and whether the wait was met.
func (r *pluginRegistry) await(count, registrations int, without []string, timeout time.Duration) (pluginView, bool) {
	deadline := time.After(timeout)
	for {
		r.mu.Lock()
		v := r.viewLocked()
		gone := true
		for _, name := range without {
			gone = gone && !r.live[name]
		}
		changed := r.changed
		r.mu.Unlock()
		if len(v.plugins) >= count && v.succeeded >= registrations && gone {
			return v, true
		}
		select {
		case <-changed:
		case <-deadline:
			return v, false
		}
	}
}

// hookLogger logs the adaptation's messages to stderr and tells the registry when a plugin came or went.
type hookLogger struct {
	registry *pluginRegistry
}

func (l hookLogger) print(level, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s %s nri: %s\n", time.Now().Format("15:04:05.000"), level, fmt.Sprintf(format, args...))
}

func (l hookLogger) Debugf(_ context.Context, format string, args ...any) {
	if os.Getenv("NRIRUNTIME_DEBUG") != "" {
		l.print("DEBUG", format, args...)
	}
	if syncFromLog && format == syncMessageFormat {
		l.registry.syncMessage()
	}
}

func (l hookLogger) Infof(_ context.Context, format string, args ...any) {
	l.print("INFO ", format, args...)
	name, ok := firstString(args)
	switch {
	case format == connectedFormat && ok:
		l.registry.setLive(name, true)
	case format == closedFormat && ok:
		l.registry.setLive(name, false)
	case format == syncingFormat && ok:
		l.registry.syncingPlugin(name)
	}
}

func (l hookLogger) Warnf(_ context.Context, format string, args ...any) {
	l.print("WARN ", format, args...)
}

func (l hookLogger) Errorf(_ context.Context, format string, args ...any) {
	l.print("ERROR", format, args...)
	if format == startFailedFormat {
		l.registry.failedBeforeSync(fmt.Sprintf(format, args...))
	}
}

func firstString(args []any) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	s, ok := args[0].(string)
	return s, ok
}
