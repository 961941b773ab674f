#!/usr/bin/env bash
# Compile-time cost of sortkey's derives against serde's `#[derive(Serialize, Deserialize)]`.
#
# Generates, in a temporary directory (nothing is written into the repository), three crates with
# the same types: STRUCTS key structs of 4 fields (u64, u64, u32, String), and for every tenth of
# them a key family (a unit variant and one of the key) and an entity (primary key and one GSI
# from 4 fields):
#
#   plain    the types with `#[derive(Debug)]` only (the cost of the types themselves)
#   sortkey  `#[derive(SortKey)]` on the keys and families, `#[derive(Entity)]` on the entities,
#            sortkey-core by path from this repository
#   serde    `#[derive(Serialize, Deserialize)]` on all of them
#
# Every crate resolves against this workspace's Cargo.lock (serde, syn, quote, darling at the
# versions the workspace builds with), everything is fetched before the first timing, and every
# timed cargo runs with --offline: no index or network time inside a figure. With the dev profile
# it times, in this one run:
#
#   clean build  `cargo build` in an empty target directory: the dependencies (the proc-macro
#                crates and their syn/quote/proc-macro2) and the crate;
#   crate only   rebuilding just the crate after touching src/lib.rs, dependencies built:
#                the expansion and compilation of the derives (CARGO_INCREMENTAL=0, so that the
#                whole crate is compiled again, as after a real change to it);
#   check only   the same with `cargo check` (expansion, type and const checking, no codegen).
#
# each the median of RUNS (3) runs, and the ratios sortkey / serde of the three. The runs of the
# three crates alternate, so that the machine's load weighs on each alike. It also prints the
# size of one struct's expansion (the golden `rank_key` expansion of sortkey-derive), and with
# IR=1 the instructions rustc executes to check each crate, counted by valgrind's callgrind:
# unlike the seconds, the same on every run, so two commits can be compared on a shared machine.
#
# Usage: tests/compile-time/run.sh [STRUCTS]     (200 by default; RUNS=5 for more runs, IR=1)
# Needs the crates in the local cargo cache (a build of the workspace fetches them) or network
# access for the fetch before the timings.
set -euo pipefail

STRUCTS=${1:-200}
RUNS=${RUNS:-3}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sortkey-compile-time.XXXXXX")
# KEEP=1 keeps the generated crates (their path is printed) for a closer look, e.g. --timings.
if [ -n "${KEEP:-}" ]; then echo "crates in $WORK" >&2; else trap 'rm -rf "$WORK"' EXIT; fi
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR RUSTFLAGS
# No incremental compilation: a touched but unchanged lib.rs would otherwise be answered from the
# incremental cache and the rebuild would time almost none of the derives' code generation.
export CARGO_INCREMENTAL=0

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

# The types of one crate. $1: the derive of keys and families; $2: the derive of entities;
# $3: 1 to write sortkey's attributes.
types() {
    local i attrs=$3
    for ((i = 0; i < STRUCTS; i++)); do
        echo "$1"
        ((attrs)) && echo '#[key(prefix = "K")]'
        echo "pub struct Key$i {"
        ((attrs)) && echo '    #[key(width = 10)]'
        echo "    pub a$i: u64,"
        ((attrs)) && echo '    #[key(width = 16, desc)]'
        echo "    pub b$i: u64,"
        echo "    pub c$i: u32,"
        echo "    pub d$i: String,"
        echo "}"
        echo
        ((i % 10 == 9)) || continue
        local k=$((i / 10))
        echo "$1"
        echo "pub enum Family$k {"
        ((attrs)) && echo "    #[key(prefix = \"UNIT$k\")]"
        echo "    Unit,"
        echo "    A(Key$i),"
        echo "}"
        echo
        echo "$2"
        if ((attrs)); then
            echo '#[entity(pk(prefix = "C", a(width = 10)), sk(prefix = "E", b(width = 16, desc), d),'
            echo '    index(gsi1(pk(prefix = "S", c), sk(b(width = 16), d))))]'
        fi
        echo "pub struct Entity$k {"
        echo "    pub a: u64,"
        echo "    pub b: u64,"
        echo "    pub c: u32,"
        echo "    pub d: String,"
        echo "}"
        echo
    done
}

mkcrate() { # name, dependency lines, header, derive, entity derive, attributes
    mkdir -p "$WORK/$1/src"
    manifest "$1" "$2" >"$WORK/$1/Cargo.toml"
    cp "$REPO/Cargo.lock" "$WORK/$1/Cargo.lock"
    { echo "$3"; types "$4" "$5" "$6"; } >"$WORK/$1/src/lib.rs"
}

mkcrate plain "" "#![allow(dead_code)]" "#[derive(Debug)]" "#[derive(Debug)]" 0
mkcrate sortkey "sortkey-core = { path = \"$REPO/sortkey-core\" }" \
    "#![allow(dead_code)]
use sortkey_core::{Entity, SortKey};" \
    "#[derive(SortKey)]" "#[derive(Entity, Debug, Clone, PartialEq)]" 1
mkcrate serde 'serde = { version = "1", features = ["derive"] }' \
    "#![allow(dead_code)]
use serde::{Deserialize, Serialize};" \
    "#[derive(Serialize, Deserialize)]" "#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]" 0

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Resolve (against the copied lock) and download first, so that no timing includes the network.
for c in plain sortkey serde; do
    cargo fetch --quiet --manifest-path "$WORK/$c/Cargo.toml"
done

build() { # crate build|check: prints seconds
    local t0 t1
    t0=$(now)
    cargo "$2" --quiet --offline --manifest-path "$WORK/$1/Cargo.toml" --target-dir "$WORK/target-$1"
    t1=$(now)
    elapsed "$t0" "$t1"
}

one() { # crate build|check clean|crate: prints the seconds of one timing
    if [ "$3" = clean ]; then rm -rf "$WORK/target-$1"; else touch "$WORK/$1/src/lib.rs"; fi
    build "$1" "$2"
}

# The runs of the three crates alternate (plain, sortkey, serde, plain, ...), so that a change in
# the machine's load while the script runs weighs on every crate alike, not on the one timed then.
declare -A CLEAN CRATE CHECK
measure() { # build|check clean|crate NAME: sets NAME[crate] to the median of RUNS timings
    local -n into=$3
    local r c
    declare -A times
    for ((r = 0; r < RUNS; r++)); do
        for c in plain sortkey serde; do
            times[$c]+="$(one "$c" "$1" "$2") "
        done
    done
    for c in plain sortkey serde; do
        echo "$c $1 $2: ${times[$c]}s" >&2
        into[$c]=$(printf '%s\n' ${times[$c]} | median)
    done
}
measure build clean CLEAN
measure build crate CRATE
for c in plain sortkey serde; do build "$c" check >/dev/null; done
measure check crate CHECK

# IR=1: the instructions rustc executes to check each crate (proc macros included), counted by
# callgrind: the same figure on every run, whatever the machine's load, for comparing two commits.
instructions() { # crate: prints millions of instructions
    local cmd
    touch "$WORK/$1/src/lib.rs"
    cmd=$(cargo check -v --offline --manifest-path "$WORK/$1/Cargo.toml" --target-dir "$WORK/target-$1" 2>&1 |
        sed -n "s/^ *Running \`\(.*--crate-name ct_$1 .*\)\`$/\1/p")
    (cd "$WORK/$1" && eval "valgrind --tool=callgrind --callgrind-out-file=/dev/null $cmd" 2>&1) |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | awk '{ printf "%.0f", $1 / 1e6 }'
}
declare -A IR
if [ -n "${IR:-}" ]; then
    for c in sortkey serde; do IR[$c]=$(instructions "$c"); done
fi

net() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
version() { grep -A1 "^name = \"$1\"" "$WORK/serde/Cargo.lock" | sed -n 's/^version = "\(.*\)"/\1/p'; }
golden="$REPO/sortkey-derive/src/output_tests/rank_key.expanded.rs"

echo
echo "$STRUCTS key structs of 4 fields, $((STRUCTS / 10)) families and $((STRUCTS / 10)) entities;" \
    "dev profile, $(nproc) cores, $(rustc --version)"
echo "serde_derive $(version serde_derive), syn $(version syn); sortkey-derive from $REPO"
echo
echo "| crate | clean build (s) | crate only (s) | crate only minus plain (s) | check only (s) |"
echo "|---|---|---|---|---|"
for c in plain sortkey serde; do
    echo "| $c | ${CLEAN[$c]} | ${CRATE[$c]} | $(net "${CRATE[$c]}" "${CRATE[plain]}") | ${CHECK[$c]} |"
done
echo
echo "Each a median of $RUNS runs. One struct's expansion (rank_key golden):" \
    "$(wc -l <"$golden") lines, $(wc -c <"$golden") bytes."
echo "sortkey / serde: clean build $(ratio "${CLEAN[sortkey]}" "${CLEAN[serde]}")x," \
    "crate only $(ratio "${CRATE[sortkey]}" "${CRATE[serde]}")x, check only $(ratio "${CHECK[sortkey]}" "${CHECK[serde]}")x"
if [ -n "${IR:-}" ]; then
    echo "Instructions to check the crate (callgrind, proc macros included): sortkey ${IR[sortkey]}M," \
        "serde ${IR[serde]}M, $(ratio "${IR[sortkey]}" "${IR[serde]}")x"
fi
