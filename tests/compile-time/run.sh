#!/usr/bin/env bash
# Compile-time cost of `#[derive(SortKey)]` against serde's `#[derive(Serialize, Deserialize)]`.
#
# Generates, in a temporary directory (nothing is written into the repository), three crates with
# the same 200 structs of 4 fields (u64, u64, u32, String):
#
#   plain    no derive at all (the cost of the structs themselves)
#   sortkey  #[derive(SortKey)], depending on this repository's sortkey-core by path
#   serde    #[derive(Serialize, Deserialize)], serde 1 with its `derive` feature from crates.io
#
# and times, one after the other in this one run, with the dev profile:
#
#   clean build  `cargo build` in an empty target directory: the dependencies (the proc-macro
#                crates and their syn/quote/proc-macro2) and the crate;
#   crate only   rebuilding just the crate after touching src/lib.rs, dependencies built:
#                the expansion and compilation of the 200 derives. Median of RUNS (3) rebuilds.
#   check only   the same with `cargo check` (expansion, type and const checking, no codegen),
#                which tells the macro's and the front end's share from LLVM's.
#
# Usage: tests/compile-time/run.sh [STRUCTS]     (200 by default; RUNS=5 for more rebuilds)
# Needs network access to crates.io the first time (or serde in the local cargo cache).
set -euo pipefail

STRUCTS=${1:-200}
RUNS=${RUNS:-3}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sortkey-compile-time.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR RUSTFLAGS

manifest() { # name, dependency lines
    cat <<TOML
[package]
name = "ct-$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$2

# Its own workspace, so that cargo looks no further up.
[workspace]
TOML
}

structs() { # derive line, per-struct attribute line, field attribute a, field attribute b
    local i
    for ((i = 0; i < STRUCTS; i++)); do
        cat <<RS
$1
$2
pub struct Key$i {
    $3
    pub a$i: u64,
    $4
    pub b$i: u64,
    pub c$i: u32,
    pub d$i: String,
}

RS
    done
}

mkcrate() { # name, dependency lines, header, derive, struct attr, field attr a, field attr b
    mkdir -p "$WORK/$1/src"
    manifest "$1" "$2" >"$WORK/$1/Cargo.toml"
    { echo "$3"; structs "$4" "$5" "$6" "$7"; } >"$WORK/$1/src/lib.rs"
}

mkcrate plain "" "#![allow(dead_code)]" "#[derive(Debug)]" "" "" ""
mkcrate sortkey "sortkey-core = { path = \"$REPO/sortkey-core\" }" \
    "#![allow(dead_code)]
use sortkey_core::SortKey;" \
    "#[derive(SortKey)]" '#[key(prefix = "K")]' "#[key(width = 10)]" "#[key(width = 16, desc)]"
mkcrate serde 'serde = { version = "1", features = ["derive"] }' \
    "#![allow(dead_code)]
use serde::{Deserialize, Serialize};" \
    "#[derive(Serialize, Deserialize)]" "" "" ""

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

build() { # crate [build|check]: prints seconds
    local t0 t1
    t0=$(now)
    cargo "${2:-build}" --quiet --manifest-path "$WORK/$1/Cargo.toml" --target-dir "$WORK/target-$1"
    t1=$(now)
    elapsed "$t0" "$t1"
}

# Resolve and download first, so that no timing includes the network.
for c in plain sortkey serde; do
    cargo fetch --quiet --manifest-path "$WORK/$c/Cargo.toml"
done

rebuilds() { # crate build|check: prints the median of RUNS rebuilds of the crate alone
    local r times=()
    for ((r = 0; r < RUNS; r++)); do
        touch "$WORK/$1/src/lib.rs"
        times+=("$(build "$1" "$2")")
    done
    echo "$1 $2 rebuilds: ${times[*]} s" >&2
    printf '%s\n' "${times[@]}" | median
}

declare -A CLEAN CRATE CHECK
for c in plain sortkey serde; do
    CLEAN[$c]=$(build "$c")
    echo "$c clean build: ${CLEAN[$c]} s" >&2
    CRATE[$c]=$(rebuilds "$c" build)
    build "$c" check >/dev/null
    CHECK[$c]=$(rebuilds "$c" check)
done

net() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
serde_version=$(grep -A1 '^name = "serde_derive"' "$WORK/serde/Cargo.lock" | sed -n 's/^version = "\(.*\)"/\1/p')

echo
echo "$STRUCTS structs of 4 fields, dev profile, $(nproc) cores, $(rustc --version)"
echo "serde_derive $serde_version; sortkey-derive from $REPO"
echo
echo "| crate | clean build (s) | crate only (s) | crate only minus plain (s) | check only (s) |"
echo "|---|---|---|---|---|"
for c in plain sortkey serde; do
    echo "| $c | ${CLEAN[$c]} | ${CRATE[$c]} | $(net "${CRATE[$c]}" "${CRATE[plain]}") | ${CHECK[$c]} |"
done
echo
echo "crate only and check only: median of $RUNS."
echo "sortkey / serde: clean build $(ratio "${CLEAN[sortkey]}" "${CLEAN[serde]}")x," \
    "crate only $(ratio "${CRATE[sortkey]}" "${CRATE[serde]}")x, check only $(ratio "${CHECK[sortkey]}" "${CHECK[serde]}")x"
