#!/usr/bin/env bash
# The Python and TypeScript packages as a user gets them: built into their archives, installed
# from the archive alone into a fresh environment, and run there. Run by .ci/run; alone from the
# repository's root with a Python that has `build` (tests/.venv after .ci/run's install).
set -euo pipefail

cd "$(dirname "$0")/.."
python="${PYTHON:-tests/.venv/bin/python}"
out="$PWD/target/packages"
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Python: an sdist and a wheel (a deprecation fails the build: the `project.license` table was
# one, supported until February 2027), the wheel installed into a fresh venv, the spec's vectors run against the installed
# package from outside the source tree.
"$python" -m build --sdist --wheel --outdir "$out/python" python 2>&1 | tee "$work/build.log" >/dev/null
if grep -qi "deprecat" "$work/build.log"; then
    grep -i -A3 "deprecat" "$work/build.log"
    echo "the Python package builds with a deprecation"
    exit 1
fi
ls "$out/python"/sortkey-0.1.0.tar.gz "$out/python"/sortkey-0.1.0-py3-none-any.whl >/dev/null
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$out/python"/sortkey-0.1.0-py3-none-any.whl pytest==9.2.0
cp -r python/tests "$work/tests"
# The vectors are read from the repository's spec/ (the tests find it from their own path).
mkdir -p "$work/repo/python" && mv "$work/tests" "$work/repo/python/tests" && ln -s "$PWD/spec" "$work/repo/spec"
installed=$(cd "$work" && "$work/venv/bin/python" -c 'import sortkey; print(sortkey.__file__)')
case "$installed" in
    "$work/venv/"*) ;;
    *) echo "the tests would import sortkey from $installed, not from the wheel"; exit 1 ;;
esac
(cd "$work" && "$work/venv/bin/pytest" -q -p no:cacheprovider repo/python/tests)

# TypeScript: `npm pack` (its prepack builds dist/), the archive installed into a fresh project
# with TypeScript, and a program that imports the package type-checked strictly and run.
(cd typescript && npm pack --silent --pack-destination "$out" >/dev/null)
archive="$out/sortkey-0.1.0.tgz"
tar -tzf "$archive" >"$work/archive.txt"
grep -q "package/dist/src/index.d.ts" "$work/archive.txt" || { cat "$work/archive.txt"; echo "no types in the archive"; exit 1; }
mkdir -p "$work/app"
cat >"$work/app/package.json" <<'JSON'
{ "name": "sortkey-user", "version": "0.0.0", "private": true, "type": "module" }
JSON
cat >"$work/app/main.ts" <<'TS'
import { decode, encode, parse } from "sortkey";

const layout = parse("RUN#{score:u64 width=10 desc}#{player:text}");
const key: string = encode(layout, { score: 1500, player: "p_1" });
const back = decode(layout, key) as { [name: string]: unknown };
if (key !== "RUN#9999998499#p_1" || back["player"] !== "p_1") {
    throw new Error(`unexpected ${key} ${JSON.stringify(back)}`);
}
console.log(key);
TS
typescript_version=$(node -p 'require("./typescript/package.json").devDependencies.typescript')
(cd "$work/app" && npm install --silent --no-audit --no-fund "$archive" "typescript@$typescript_version" "@types/node@20")
(cd "$work/app" && npx tsc --strict --module nodenext --moduleResolution nodenext --target es2022 --types node main.ts && node main.js)
echo "packages: the wheel and the npm archive install and run"
