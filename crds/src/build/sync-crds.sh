#!/usr/bin/env bash
# Copies the CRDs the build generated into every committed location.
# Usage: sync-crds.sh GENERATED_DIR TARGET_DIR[,TARGET_DIR...]
# A target whose parent directory does not exist is skipped (e.g. the Helm chart before it exists).
set -euo pipefail

generated_dir=$1
IFS=',' read -r -a targets <<<"$2"

shopt -s nullglob
generated=("$generated_dir"/*.yml)
if ((${#generated[@]} == 0)); then
  echo "sync-crds: no CRD found in $generated_dir; did the crd-generator plugin run?" >&2
  exit 1
fi

for target in "${targets[@]}"; do
  [[ -n $target ]] || continue
  if [[ ! -d $(dirname "$target") ]]; then
    echo "sync-crds: skipping $target (its parent directory does not exist)"
    continue
  fi
  mkdir -p "$target"
  # Only files this generator owns are replaced, so a target may hold other CRDs too.
  rm -f "$target"/*.podnuma.io-v1.yml
  cp "${generated[@]}" "$target"/
  echo "sync-crds: wrote ${#generated[@]} CRD file(s) to $target"
done
