#!/bin/sh
# Prepares, once, what a QEMU test guest boots: the standard Debian kernel (not -cloud-, which lacks
# 9p), its virtio/9p modules, the modules a worker node needs (virtio-net, veth, bridge, overlay) and a
# busybox initramfs. Everything lands in
#   ${PODNUMA_QEMU_CACHE:-$HOME/.cache/podnuma/qemu}/<kernel-version>-<hash of this script>/
# (a changed script makes a new initramfs).
# and the last line on stdout is that directory. Exit 0: ready; exit 3: cannot prepare here (the reason
# is on stderr, the test skips with it); anything else: a real failure.
#
# The guest's /init mounts proc, sysfs, devtmpfs, cgroup2 and the 9p shares (host /usr and /etc
# read-only, a read-write work dir), runs /work/run.sh (written by the test), prints a marker line
# with its exit code and powers off.
set -eu

skip() { echo "prepare-guest: SKIP: $*" >&2; exit 3; }
need_packages() {
    missing=""
    command -v qemu-system-x86_64 >/dev/null 2>&1 || missing="$missing qemu-system-x86"
    [ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || missing="$missing busybox-static"
    command -v cpio >/dev/null 2>&1 || missing="$missing cpio"
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        skip "missing packages:$missing (install them, or run as root where apt-get works)"
    fi
    echo "prepare-guest: installing$missing" >&2
    apt_install $missing || { apt_update && apt_install $missing; } || skip "apt-get install$missing failed"
}
apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >&2; }
# Package lists may be missing or stale on a fresh CI machine: refresh them once, as root only.
updated=no
apt_update() {
    [ "$updated" = no ] && [ "$(id -u)" = 0 ] || return 1
    updated=yes
    apt-get update >&2
}
# The kernel line: Debian's default (linux-image-amd64), or another meta-package such as linux-image-6.12-amd64
# (bookworm's newer LTS kernel, with cgroup v2 cpuset partitions below the root: cpuset.cpus.exclusive, 6.7+).
kernel_meta=${PODNUMA_GUEST_KERNEL:-linux-image-amd64}
case "$kernel_meta" in
    linux-image-*-amd64|linux-image-amd64) ;;
    *) echo "PODNUMA_GUEST_KERNEL=$kernel_meta: expected a Debian kernel meta-package linux-image-[...-]amd64" >&2; exit 2 ;;
esac
resolve_kernel() {
    apt-cache depends "$kernel_meta" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1
}

need_packages
BUSYBOX=$(command -v busybox)
# The initramfs needs a static busybox: the dynamic one would look for a libc the guest does not have
# until /usr is mounted.
if ! "$BUSYBOX" 2>/dev/null | head -1 | grep -q .; then skip "$BUSYBOX does not run"; fi
if command -v file >/dev/null 2>&1 && file -L "$BUSYBOX" | grep -q dynamically; then
    skip "$BUSYBOX is dynamically linked; install busybox-static"
fi

command -v apt-cache >/dev/null 2>&1 || skip "no apt-cache: the kernel comes from Debian's linux-image-amd64"
abi_package=$(resolve_kernel)
if [ -z "$abi_package" ] && apt_update; then abi_package=$(resolve_kernel); fi
[ -n "$abi_package" ] || skip "apt-cache depends $kernel_meta names no linux-image-<abi>-amd64 (apt-get update?)"
version=${abi_package#linux-image-}

cache=${PODNUMA_QEMU_CACHE:-$HOME/.cache/podnuma/qemu}/$version-$(sha256sum "$0" | cut -c1-12)
if [ -f "$cache/ready" ]; then
    echo "$cache"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "$abi_package" >&2) \
    || { apt_update && (cd "$work" && apt-get download "$abi_package" >&2); } \
    || skip "apt-get download $abi_package failed"
dpkg-deb -x "$work"/"$abi_package"_*.deb "$work/pkg"
moddir="$work/pkg/lib/modules/$version/kernel"
[ -f "$work/pkg/boot/vmlinuz-$version" ] || { echo "no boot/vmlinuz-$version in $abi_package" >&2; exit 1; }

root="$work/initramfs"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/usr" "$root/etc" "$root/work" \
    "$root/tmp" "$root/modules"
cp "$BUSYBOX" "$root/bin/busybox"
# The host's /usr arrives over 9p: the usual merged-/usr links make its loader and libraries usable.
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"

# Load order from each module's own "depends=" field (no depmod needed): dependencies first.
order=""
add_module() {
    case " $order " in *" $1 "*) return 0 ;; esac
    file=$(find "$moddir" -name "$1.ko" -o -name "$1.ko.xz" | head -1)
    if [ -z "$file" ]; then
        # Built into this kernel (6.12 has virtio_pci built in): nothing to load.
        if grep -q "/$1\.ko\$" "$moddir/../modules.builtin" 2>/dev/null; then return 0; fi
        echo "module $1 not in $abi_package" >&2
        exit 1
    fi
    case "$file" in
        *.xz) xz -dc "$file" > "$root/modules/$1.ko" ;;
        *) cp "$file" "$root/modules/$1.ko" ;;
    esac
    deps=$(tr '\0' '\n' < "$root/modules/$1.ko" | sed -n 's/^depends=//p' | tr ',' ' ')
    for d in $deps; do add_module "$d"; done
    order="$order $1"
}
for m in virtio_pci 9pnet_virtio 9p virtio_net veth bridge overlay; do add_module "$m"; done
echo "$order" > "$root/modules/order"

cat > "$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t cgroup2 cgroup2 /sys/fs/cgroup
for m in $(cat /modules/order); do
    insmod /modules/$m.ko || echo "PODNUMA-GUEST: insmod $m failed"
done
# cache=loose on the read-only /usr: without it every exec reads its binary over 9p again, and under
# emulation that dominated a pod's start and stop (runc, shims). /etc stays uncached: it may change.
opts=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o $opts,ro,cache=loose usr /usr && mount -t 9p -o $opts,ro etc /etc && mount -t 9p -o $opts work /work
if [ -f /work/run.sh ]; then
    sh /work/run.sh > /work/run.log 2>&1
    echo "PODNUMA-GUEST-DONE rc=$?"
else
    echo "PODNUMA-GUEST-DONE rc=127 (no /work/run.sh: shares not mounted)"
fi
sync
poweroff -f
INIT
chmod +x "$root/init"

mkdir -p "$cache.tmp.$$"
cp "$work/pkg/boot/vmlinuz-$version" "$cache.tmp.$$/vmlinuz"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$cache.tmp.$$/initramfs.cpio.gz"
echo "$version" > "$cache.tmp.$$/ready"
rm -rf "$cache"
mv "$cache.tmp.$$" "$cache"
echo "prepare-guest: ready in $cache (modules:$order)" >&2
echo "$cache"
