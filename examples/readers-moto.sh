#!/usr/bin/env bash
# The keys a Rust service wrote, read by other languages through the spec: the leaderboard
# example writes its season to moto, then a Python script (boto3) and a TypeScript one
# (@aws-sdk/client-dynamodb) read the top of it with the packages of python/ and typescript/,
# and each must print the Rust example's "3 best runs" exactly.
#   bash examples/readers-moto.sh
# Needs the packages built: `pip install ./python` into tests/.venv (or PYTHONPATH=python) and
# `npm ci && npm run build` in typescript/.
set -euo pipefail
cd "$(dirname "$0")/.."
source examples/moto.sh
endpoint="http://127.0.0.1:$port"

cargo build --quiet --workspace --all-features --example leaderboard
# The block of the Rust example's output: the query, its condition and expression, the table.
rust=$("${CARGO_TARGET_DIR:-target}/debug/examples/leaderboard" --endpoint "$endpoint" \
    | sed -n '/^the 3 best runs (Limit 3):$/,/^$/p' | sed '/^$/d')
if [ -z "$rust" ]; then
    echo "the Rust example printed no top of the season" >&2
    exit 1
fi
status=0
check() {
    local name=$1 got=$2
    if [ "$got" == "$rust" ]; then
        echo "$name: the same as the Rust example:"
        echo "$got"
    else
        echo "$name differs from the Rust example:" >&2
        diff <(echo "$rust") <(echo "$got") >&2 || true
        status=1
    fi
}
python=tests/.venv/bin/python
check "Python (boto3)" "$(PYTHONPATH=python "$python" examples/readers/top_of_season.py "$endpoint")"
check "TypeScript (@aws-sdk/client-dynamodb)" "$(node typescript/dist/examples/top_of_season.js "$endpoint")"
exit $status
