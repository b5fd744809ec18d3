# What scripts/reference-ga.sh, scripts/reference-aco.sh, scripts/reference-bls.sh and
# scripts/bench-cpu-rots.sh share; sourced by them, from the repository root.

# One line on stderr, named by the calling script, and exit 2.
fail() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# NAME VALUE: VALUE must be a whole number from 1.
whole() {
  [[ $2 =~ ^[1-9][0-9]*$ ]] || fail "$1 = '$2': a whole number from 1"
}

# NAME VALUE: VALUE must be a number above 0 (seconds).
positive() {
  [[ $2 =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v x="$2" 'BEGIN { exit !(x > 0) }' || fail "$1 = '$2': a number of seconds above 0"
}

# Sets dir to the QAPLIB folder: $QAPLIB_DIR where it is set (it must exist), else
# ../shared/qaplib, else data/qaplib.
qaplib_dir() {
  if [ -n "${QAPLIB_DIR:-}" ]; then
    dir=$QAPLIB_DIR
    [ -d "$dir" ] || fail "QAPLIB_DIR = '$dir': no such folder"
  else
    dir=../shared/qaplib
    [ -d "$dir" ] || dir=data/qaplib
  fi
}

# NAME [FLAGS...]: sets bin to scripts/reference/NAME.c built with gcc -O3 (and FLAGS, such
# as -lm) in a temporary folder that is removed when the script exits.
build() {
  build_dir=$(mktemp -d)
  trap 'rm -rf "$build_dir"' EXIT
  bin=$build_dir/$1
  gcc -O3 -o "$bin" "scripts/reference/$1.c" "${@:2}" || fail "scripts/reference/$1.c did not build"
}

# Sets jobs to $JOBS (a whole number from 1) or the number of cores.
jobs_of() {
  jobs=${JOBS:-$(nproc)}
  whole JOBS "$jobs"
}
