#!/usr/bin/env bash
# Fetches the whole of QAPLIB (134 instances, about 3 MB; not shipped in the repository)
# into DEST (default dist/qaplib-all), with data/qaplib-all/bks.csv beside the files, so
# that QAPLIB_DIR=DEST runs `bench gaps` over every instance and `auto` on every tai*a
# and on tai256c (issue 43's measurements). The files come from didoudiaz/QAP-instances
# (QAPLIB/, pinned at commit 3cfd4f2), whose instances are QAPLIB's; every file is checked
# against data/qaplib-all/SHA256SUMS. SOURCE=<a clone of that repository> copies from it
# instead of downloading (a machine without network, or a mirror).
#   scripts/fetch-qaplib.sh [DEST]        (from the repository root)
# Each file is written under a temporary name and renamed once whole; a file that fails its
# checksum is removed, so that the next run fetches it again.
set -euo pipefail
dest=${1:-dist/qaplib-all}
raw=https://raw.githubusercontent.com/didoudiaz/QAP-instances/3cfd4f2bf82782e6c02fe4a79397e02f8ef54b14/QAPLIB
sums=$PWD/data/qaplib-all/SHA256SUMS
[ -f "$sums" ] || { echo "fetch-qaplib.sh: run it from the repository root (no $sums)" >&2; exit 2; }
if [ -n "${SOURCE:-}" ] && [ ! -d "$SOURCE/QAPLIB" ]; then
  echo "fetch-qaplib.sh: SOURCE $SOURCE has no QAPLIB folder" >&2
  exit 2
fi
mkdir -p "$dest"
awk '{ print $2 }' "$sums" | while read -r f; do
  [ -s "$dest/$f" ] && continue
  if [ -n "${SOURCE:-}" ]; then
    cp "$SOURCE/QAPLIB/$f" "$dest/$f.part" || { echo "fetch-qaplib.sh: $SOURCE/QAPLIB lacks $f" >&2; exit 1; }
  else
    curl -fsSL "$raw/$f" -o "$dest/$f.part" 2>/dev/null || {
      rm -f "$dest/$f.part"
      echo "fetch-qaplib.sh: cannot download $f from $raw (no network? SOURCE=<a clone of didoudiaz/QAP-instances> copies from one)" >&2
      exit 1
    }
  fi
  mv "$dest/$f.part" "$dest/$f"
done
if ! (cd "$dest" && sha256sum --quiet -c "$sums"); then
  (cd "$dest" && sha256sum -c "$sums" 2>/dev/null | grep -v ': OK$' | cut -d: -f1 | xargs -r rm -f)
  echo "$dest: files that failed their checksum were removed; run again" >&2
  exit 1
fi
cp data/qaplib-all/bks.csv "$dest/bks.csv.part" && mv "$dest/bks.csv.part" "$dest/bks.csv"
echo "$dest: $(wc -l < "$sums") instances, checked; bks.csv from data/qaplib-all"
