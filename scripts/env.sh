# Shared set-up for podnuma's scripts: picks a JDK >= 21 and checks the tools the build needs.
# Sourced, not executed.

podnuma_die() {
  echo "podnuma: $*" >&2
  exit 1
}

# The Java feature release of a JDK home (e.g. 25), or nothing when it is not a JDK.
podnuma_java_major() {
  [ -x "$1/bin/javac" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 |
    awk -F'= ' '/java.specification.version/ {split($2, v, "."); print v[1]}'
}

# The machine's default java may be 17; the build needs 21 or newer. Honour a JAVA_HOME that is already
# new enough, otherwise take the newest JDK >= 21 under /usr/lib/jvm.
podnuma_select_jdk() {
  local candidate major
  for candidate in ${JAVA_HOME:+"$JAVA_HOME"} $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    candidate="${candidate%/}"
    major=$(podnuma_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      export JAVA_HOME="$candidate"
      # Maven 3.9's Guice uses sun.misc.Unsafe, which JDK 24+ warns about on every run.
      if [ "$major" -ge 24 ]; then
        export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
      fi
      return 0
    fi
  done
  podnuma_die "no JDK 21 or newer found (JAVA_HOME unset or too old, nothing suitable under /usr/lib/jvm). Install one, e.g. Temurin 25, and set JAVA_HOME."
}

podnuma_require_go() {
  command -v go >/dev/null 2>&1 || podnuma_die "the Go toolchain is needed to build the local control plane from Go modules; install Go 1.26 or newer (https://go.dev/doc/install)."
}

# Builds (or finds in the cache) kube-apiserver, etcd, controller-manager, scheduler, kubectl, kwok, helm and the real
# node's kubelet, containerd, ctr, the runc shim, runc (Debian's, apt-get installed when missing) and the CNI plugins.
podnuma_controlplane() {
  podnuma_require_go
  local out
  # Progress goes to stderr; --print-bin-dir prints only the bin directory on stdout.
  out=$("$PODNUMA_ROOT/e2e/controlplane/build-controlplane.sh" --print-bin-dir) || podnuma_die "building the local control plane failed (see above)"
  export PODNUMA_CONTROLPLANE_BIN="$out"
}

# The pause and workload images are static C binaries (e2e/images): gcc and the static glibc must be there. As root
# on a Debian-like machine they are installed when missing (CI has the package servers); otherwise say what to do.
podnuma_require_static_cc() {
  if command -v gcc >/dev/null 2>&1 && [ -n "$(gcc -print-file-name=libc.a 2>/dev/null | grep /)" ] &&
    [ -f "$(gcc -print-file-name=libc.a)" ]; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "podnuma: installing gcc and libc6-dev (static C binaries of the test images)" >&2
    # A fresh machine may have no package lists yet: update once, then try again.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc libc6-dev >&2 ||
      { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc libc6-dev >&2; } ||
      podnuma_die "apt-get install gcc libc6-dev failed; install a C compiler with the static glibc"
    return 0
  fi
  podnuma_die "gcc with the static glibc is needed for the test images (Debian: apt-get install gcc libc6-dev)"
}

PODNUMA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PODNUMA_ROOT
