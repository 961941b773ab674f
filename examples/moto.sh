# Sourced by the scripts that run examples against a local DynamoDB-compatible server (moto):
# installs moto into tests/.venv (as CI does) when it is not there, starts it on a free loopback
# port ($port), and stops it when the script exits.
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
