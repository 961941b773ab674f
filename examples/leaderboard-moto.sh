#!/usr/bin/env bash
# The leaderboard against a local DynamoDB-compatible server (moto), in one command:
#   bash examples/leaderboard-moto.sh
# Another example that takes --endpoint with SORTKEY_EXAMPLE=catalogue, single_table, orders or
# migration; several, one after the other against one server, with SORTKEY_EXAMPLE="orders migration".
# Installs moto into tests/.venv (as CI does), starts it on a free loopback port, runs each
# example with --endpoint (each in its own table, sortkey-<example>), and stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x tests/.venv/bin/moto_server ]; then
    python3 -m venv tests/.venv
    tests/.venv/bin/pip install --quiet -r tests/requirements-dynamodb.txt
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
tests/.venv/bin/moto_server -H 127.0.0.1 -p "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done
for example in ${SORTKEY_EXAMPLE:-leaderboard}; do
    echo "--- $example against moto"
    # Built with the workspace's features (those `cargo test --workspace` built the SDK with), so
    # the SDK is not compiled again for one package's selection.
    cargo build --quiet --workspace --features sortkey-examples/dynamodb --example "$example"
    "${CARGO_TARGET_DIR:-target}/debug/examples/$example" --endpoint "http://127.0.0.1:$port" "$@"
done
