#!/usr/bin/env bash
# Builds the local control plane (kube-apiserver, kube-controller-manager, kube-scheduler, kubectl, etcd,
# kwok, helm) from the Go wrapper modules beside this script into a per-version cache directory.
#
# Needs only a Go toolchain and the Go module proxy. Progress goes to stderr; the bin directory is the
# last line on stdout, so callers can run `dir=$(build-controlplane.sh --print-bin-dir)`.
#
# Environment:
#   PODNUMA_CACHE_DIR   cache root (default $HOME/.cache/podnuma); binaries land in
#                       $PODNUMA_CACHE_DIR/controlplane/<key>/bin
#   GO                  the go command to use (default: `go` on PATH, else /usr/local/go/bin/go)
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
go_version="$("$go_cmd" env GOVERSION)"

# Anything that changes the binaries changes the key: the pinned modules, the toolchain and this script.
fingerprint="$(
    {
        printf '%s\n' "$go_version"
        cat "$script_path"
        for m in kubernetes etcd kwok helm; do cat "$here/$m/go.mod" "$here/$m/go.sum"; done
    } | sha256sum | cut -c1-12
)"
key="k8s-${k8s_version}_etcd-${etcd_version}_kwok-${kwok_version}_helm-${helm_version}_${fingerprint}"
cache_root="${PODNUMA_CACHE_DIR:-$HOME/.cache/podnuma}/controlplane"
key_dir="$cache_root/$key"
bin_dir="$key_dir/bin"
tools=(kube-apiserver kube-controller-manager kube-scheduler kubectl etcd kwok helm)

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

log "building control plane $key"
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
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl

# etcd's version is a constant in its api module; only the commit is a link-time variable.
build_module etcd "etcd $etcd_version" "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=release-$etcd_version" \
    go.etcd.io/etcd/server/v3
build_module kwok "kwok $kwok_version" "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${kwok_version#v}" \
    sigs.k8s.io/kwok/cmd/kwok
build_module helm "helm $helm_version" "-s -w -X helm.sh/helm/v4/internal/version.version=$helm_version" \
    helm.sh/helm/v4/cmd/helm

# The etcd server's main package is the module root, so go names the binary after it ("server").
mv "$staging/out-etcd/server" "$staging/out-etcd/etcd"
for t in "${tools[@]}"; do
    found="$(find "$staging" -mindepth 2 -maxdepth 2 -name "$t" -type f | head -n 1)"
    [[ -n "$found" ]] || fail "the build produced no '$t' binary under $staging"
    mv "$found" "$staging/$t"
done
find "$staging" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +

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
} >"$key_dir/build-info.txt"
log "built all tools in ${elapsed}s (${timings[*]}) into $bin_dir"
finish
