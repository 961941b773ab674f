#!/usr/bin/env bash
# The leaderboard against a local DynamoDB-compatible server (moto), in one command:
#   bash examples/leaderboard-moto.sh
# Another example that takes --endpoint with SORTKEY_EXAMPLE=catalogue, single_table, orders or
# migration; several, one after the other against one server, with SORTKEY_EXAMPLE="orders migration".
# Installs moto into tests/.venv (as CI does), starts it on a free loopback port, runs each
# example with --endpoint (each in its own table, sortkey-<example>), and stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."

source examples/moto.sh
for example in ${SORTKEY_EXAMPLE:-leaderboard}; do
    echo "--- $example against moto"
    # Built with the workspace's features (those `cargo test --workspace --all-features` built
    # everything with), so that nothing is compiled again for one package's selection.
    cargo build --quiet --workspace --all-features --example "$example"
    "${CARGO_TARGET_DIR:-target}/debug/examples/$example" --endpoint "http://127.0.0.1:$port" "$@"
done
