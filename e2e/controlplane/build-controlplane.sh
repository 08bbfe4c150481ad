#!/usr/bin/env bash
# Builds the local control plane (kube-apiserver, kube-controller-manager, kube-scheduler, kubectl, etcd,
# kwok, helm), the real worker node (kubelet, containerd, ctr, containerd-shim-runc-v2, the CNI plugins
# bridge, host-local, loopback and portmap under bin/cni) and Prometheus (prometheus, promtool) from the Go
# wrapper modules beside this script into a per-version cache directory. runc is Debian's package, copied into the bin dir: its Go module needs cgo
# and libseccomp-dev, the package is one apt-get away and has been measured to work here.
#
# Needs a Go toolchain and the Go module proxy, and runc on PATH (installed with apt-get when missing and
# root; set RUNC=/path/to/runc to use another). Progress goes to stderr; the bin directory is the
# last line on stdout, so callers can run `dir=$(build-controlplane.sh --print-bin-dir)`.
#
# Environment:
#   PODNUMA_CACHE_DIR   cache root (default $HOME/.cache/podnuma); binaries land in
#                       $PODNUMA_CACHE_DIR/controlplane/<key>/bin
#   GO                  the go command to use (default: `go` on PATH, else /usr/local/go/bin/go)
#   RUNC                the runc to copy (default: `runc` on PATH, installed with apt-get when missing)
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: build-controlplane.sh [--print-bin-dir] [--force] [--prune] [--help]

Builds the control-plane binaries once per version and wrapper-module hash, then reuses them.
  --print-bin-dir  print only the bin directory on stdout (progress still goes to stderr)
  --force          rebuild even when the cache holds a complete build
  --prune          delete the other builds in the cache (older versions, older scripts)
EOF
}

print_only=false
force=false
prune=false
for arg in "$@"; do
    case "$arg" in
        --print-bin-dir) print_only=true ;;
        --force) force=true ;;
        --prune) prune=true ;;
        -h | --help) usage; exit 0 ;;
        *) echo "build-controlplane.sh: unknown argument '$arg' (allowed: --print-bin-dir, --force, --prune, --help)" >&2; exit 2 ;;
    esac
done

log() { printf '[controlplane] %s\n' "$*" >&2; }
fail() { printf '[controlplane] ERROR: %s\n' "$*" >&2; exit 1; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
script_path="$here/$(basename "${BASH_SOURCE[0]}")"

go_cmd="${GO:-}"
if [[ -z "$go_cmd" ]]; then
    if command -v go >/dev/null 2>&1; then
        go_cmd="$(command -v go)"
    elif [[ -x /usr/local/go/bin/go ]]; then
        go_cmd=/usr/local/go/bin/go
    else
        fail "no Go toolchain: put 'go' on PATH or set GO=/path/to/go (the wrapper modules need Go 1.26 or newer)"
    fi
fi

# The version a wrapper module pins for one module path, read from its go.mod so the two never disagree.
required_version() {
    local dir="$1" module="$2" version
    version="$(awk -v m="$module" '($1 == m || ($1 == "require" && $2 == m)) { print ($1 == m ? $2 : $3); exit }' \
        "$here/$dir/go.mod")"
    [[ -n "$version" ]] || fail "$dir/go.mod does not require $module"
    printf '%s' "$version"
}

k8s_version="$(required_version kubernetes k8s.io/kubernetes)"
etcd_version="$(required_version etcd go.etcd.io/etcd/server/v3)"
kwok_version="$(required_version kwok sigs.k8s.io/kwok)"
helm_version="$(required_version helm helm.sh/helm/v4)"
containerd_version="$(required_version containerd github.com/containerd/containerd/v2)"
cni_version="$(required_version cni github.com/containernetworking/plugins)"
prometheus_version="$(required_version prometheus github.com/prometheus/prometheus)"
go_version="$("$go_cmd" env GOVERSION)"

# Anything that changes the binaries changes the key: the pinned modules, the toolchain and this script.
fingerprint="$(
    {
        printf '%s\n' "$go_version"
        cat "$script_path"
        for m in kubernetes etcd kwok helm containerd cni prometheus; do cat "$here/$m/go.mod" "$here/$m/go.sum"; done
    } | sha256sum | cut -c1-12
)"
key="k8s-${k8s_version}_etcd-${etcd_version}_kwok-${kwok_version}_helm-${helm_version}"
key+="_containerd-${containerd_version}_cni-${cni_version}_prometheus-${prometheus_version}_${fingerprint}"
cache_root="${PODNUMA_CACHE_DIR:-$HOME/.cache/podnuma}/controlplane"
key_dir="$cache_root/$key"
bin_dir="$key_dir/bin"
tools=(kube-apiserver kube-controller-manager kube-scheduler kubectl etcd kwok helm
    kubelet containerd ctr containerd-shim-runc-v2 runc cni/bridge cni/host-local cni/loopback cni/portmap
    prometheus promtool)

complete() {
    local t
    for t in "${tools[@]}"; do [[ -x "$bin_dir/$t" ]] || return 1; done
    [[ -f "$key_dir/build-info.txt" ]]
}

# Each script or module change makes a new key; old builds (~0.5 GB each) stay until pruned.
report_others() {
    local other others=()
    for other in "$cache_root"/*/; do
        other="${other%/}"
        [[ "$other" == "$key_dir" ]] || others+=("$other")
    done
    ((${#others[@]} > 0)) || return 0
    if $prune; then
        rm -rf "${others[@]}"
        log "pruned ${#others[@]} other build(s) from $cache_root"
    else
        log "${#others[@]} other build(s) in $cache_root ($(du -sch "${others[@]}" | tail -n 1 | cut -f1)); --prune removes them"
    fi
}

finish() {
    report_others
    if $print_only; then printf '%s\n' "$bin_dir"; else printf 'bin dir: %s\n%s\n' "$bin_dir" "$bin_dir"; fi
}

if ! $force && complete; then
    log "cache hit: $bin_dir"
    finish
    exit 0
fi

mkdir -p "$key_dir"
# Two test JVMs may ask at once; the second waits for the first build instead of repeating it.
exec 9>"$key_dir/.lock"
if command -v flock >/dev/null 2>&1 && ! flock -n 9; then
    log "another build of $key is running; waiting for its lock $key_dir/.lock"
    flock 9
fi
if ! $force && complete; then
    log "cache hit (built by another process meanwhile): $bin_dir"
    finish
    exit 0
fi

staging="$key_dir/bin.partial.$$"
rm -rf "$staging"
mkdir -p "$staging"
trap 'rm -rf "$staging"' EXIT

# runc first: a machine that cannot get it should fail before the long Go build, not after it.
runc_cmd="${RUNC:-}"
if [[ -z "$runc_cmd" ]]; then
    if ! command -v runc >/dev/null 2>&1; then
        if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
            log "[runc] not on PATH: apt-get install -y runc"
            # A fresh machine may have no package lists yet: update once, then try again.
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q runc >&2 ||
                { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q runc >&2; } ||
                fail "[runc] apt-get install runc failed; install runc or set RUNC=/path/to/runc"
        else
            fail "[runc] not on PATH and cannot apt-get it (needs root and apt-get); install runc or set RUNC=/path/to/runc"
        fi
    fi
    runc_cmd="$(command -v runc)"
fi
[[ -x "$runc_cmd" ]] || fail "[runc] $runc_cmd is not executable"
cp "$runc_cmd" "$staging/runc"

log "building control plane and node $key"
log "go: $go_cmd ($go_version), GOCACHE=$("$go_cmd" env GOCACHE), GOMODCACHE=$("$go_cmd" env GOMODCACHE)"
started=$SECONDS
timings=()

# One `go build` per wrapper module, all of its commands at once, so they share compile work.
# Flags must stay identical across runs so the Go build cache is reused.
build_module() {
    local module="$1" label="$2" ldflags="$3"
    shift 3
    local t0=$SECONDS out="$staging/out-$module"
    mkdir -p "$out"
    log "[$label] go build $* (this is the long part on a cold Go build cache)"
    (cd "$here/$module" && CGO_ENABLED=0 "$go_cmd" build -buildvcs=false -o "$out/" -ldflags "$ldflags" "$@") >&2 ||
        fail "[$label] go build failed in $here/$module; re-run with GOFLAGS=-x for details"
    timings+=("$label=$((SECONDS - t0))s")
    log "[$label] done in $((SECONDS - t0))s"
}

k8s_minor="${k8s_version#v1.}"
k8s_minor="${k8s_minor%%.*}"
k8s_ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    k8s_ldflags+=" -X $pkg.gitVersion=$k8s_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$k8s_minor"
done
build_module kubernetes "kubernetes $k8s_version" "$k8s_ldflags" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl k8s.io/kubernetes/cmd/kubelet

# etcd's version is a constant in its api module; only the commit is a link-time variable.
build_module etcd "etcd $etcd_version" "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=release-$etcd_version" \
    go.etcd.io/etcd/server/v3
build_module kwok "kwok $kwok_version" "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${kwok_version#v}" \
    sigs.k8s.io/kwok/cmd/kwok
build_module helm "helm $helm_version" "-s -w -X helm.sh/helm/v4/internal/version.version=$helm_version" \
    helm.sh/helm/v4/cmd/helm
containerd_pkg=github.com/containerd/containerd/v2
build_module containerd "containerd $containerd_version" \
    "-s -w -X $containerd_pkg/version.Version=$containerd_version -X $containerd_pkg/version.Package=$containerd_pkg" \
    -tags "no_btrfs no_devmapper no_zfs" \
    $containerd_pkg/cmd/containerd $containerd_pkg/cmd/ctr $containerd_pkg/cmd/containerd-shim-runc-v2
cni_pkg=github.com/containernetworking/plugins
build_module cni "cni $cni_version" "-s -w -X $cni_pkg/pkg/utils/buildversion.BuildVersion=$cni_version" \
    $cni_pkg/plugins/main/bridge $cni_pkg/plugins/ipam/host-local $cni_pkg/plugins/main/loopback \
    $cni_pkg/plugins/meta/portmap
# Prometheus tags its Go module v0.<major*100+minor>.<patch>: v0.316.0 is Prometheus 3.16.0, the version the
# binaries must print. The module proxy knows no commit, so the revision is the module version and the build
# date the version's publication time (not now: the same inputs link the same binaries).
prometheus_number="${prometheus_version#v0.}"
prometheus_release="$((${prometheus_number%%.*} / 100)).$((${prometheus_number%%.*} % 100)).${prometheus_number#*.}"
prometheus_published="$(cd "$here/prometheus" &&
    "$go_cmd" list -m -f '{{.Time.UTC.Format "20060102-15:04:05"}}' github.com/prometheus/prometheus 2>/dev/null ||
    echo unknown)"
prometheus_pkg=github.com/prometheus/common/version
build_module prometheus "prometheus $prometheus_version" \
    "-s -w -X $prometheus_pkg.Version=$prometheus_release -X $prometheus_pkg.Revision=$prometheus_version \
 -X $prometheus_pkg.Branch=go-module -X $prometheus_pkg.BuildUser=podnuma-build-controlplane \
 -X $prometheus_pkg.BuildDate=$prometheus_published" \
    -tags netgo github.com/prometheus/prometheus/cmd/prometheus github.com/prometheus/prometheus/cmd/promtool

# The etcd server's main package is the module root, so go names the binary after it ("server").
mv "$staging/out-etcd/server" "$staging/out-etcd/etcd"
# CNI plugins get a directory of their own: containerd's CNI bin_dirs should hold plugins only.
mkdir -p "$staging/cni"
for t in "${tools[@]}"; do
    [[ "$t" == runc ]] && continue
    found="$(find "$staging" -mindepth 2 -maxdepth 2 -path "$staging/out-*/${t#cni/}" -type f | head -n 1)"
    [[ -n "$found" ]] || fail "the build produced no '$t' binary under $staging"
    mv "$found" "$staging/$t"
done
find "$staging" -mindepth 1 -maxdepth 1 -type d -name 'out-*' -exec rm -rf {} +

# A binary that reports the wrong version would fail later in confusing ways (chart kubeVersion checks).
check_version() {
    local tool="$1" expected="$2" actual
    shift 2
    actual="$("$staging/$tool" "$@" 2>&1 | head -n 3 || true)"
    [[ "$actual" == *"$expected"* ]] || fail "$tool reports '$actual', expected it to contain '$expected'"
    log "[$tool] $(printf '%s' "$actual" | head -n 1)"
}
check_version kube-apiserver "$k8s_version" --version
check_version kube-controller-manager "$k8s_version" --version
check_version kube-scheduler "$k8s_version" --version
check_version kubectl "$k8s_version" version --client
check_version etcd "${etcd_version#v}" --version
check_version kwok "${kwok_version#v}" --version
check_version helm "$helm_version" version --short
check_version kubelet "$k8s_version" --version
check_version containerd "$containerd_version" --version
check_version ctr "$containerd_version" --version
check_version containerd-shim-runc-v2 "$containerd_version" -v
check_version runc "runc version" --version
# A CNI plugin called without CNI_COMMAND prints its name and version.
for plugin in bridge host-local loopback portmap; do check_version "cni/$plugin" "$cni_version"; done
check_version prometheus "version $prometheus_release" --version
check_version promtool "version $prometheus_release" --version

rm -rf "$bin_dir"
mv "$staging" "$bin_dir"
trap - EXIT
elapsed=$((SECONDS - started))
{
    printf 'key=%s\n' "$key"
    printf 'go=%s\n' "$go_version"
    printf 'built=%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    printf 'elapsed_seconds=%s\n' "$elapsed"
    printf 'timings=%s\n' "${timings[*]}"
    printf 'runc=%s (%s)\n' "$runc_cmd" "$("$bin_dir/runc" --version 2>&1 | head -n 1)"
} >"$key_dir/build-info.txt"
log "built all tools in ${elapsed}s (${timings[*]}) into $bin_dir"
finish
