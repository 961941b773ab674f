#!/usr/bin/env python3
"""The coverage table of the key format's spec: each requirement of spec/SPEC.md, its vectors,
and how each reader does on them.

    python3 spec/coverage.py [--require rust,python,typescript] [--markdown FILE] [--check FILE]

Each reader's run of the vectors writes target/spec/<reader>.json, an object of vector id to
true (passed) or false (failed): the Rust one by `cargo test -p sortkey-tests --test spec`, the
Python one by `pytest python/tests`, the TypeScript one by `npm test` in typescript/. The run
fails (exit 1) when a requirement has no vector, a vector names a requirement SPEC.md has not,
a reader fails a vector (but one spec/known-differences.txt lists for it: only vectors of
SHOULD requirements, and an entry the reader now passes fails the run as stale), a reader named
by --require has no results, or (--check) the table
differs from the one FILE holds (spec/COVERAGE.md, which the spec links: rewrite it with
--markdown).
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The format's current version: the vectors every reader runs.
VERSION = 2
HEADER = f"""# Coverage of the spec

Each requirement of [SPEC.md](SPEC.md), its vectors in `vectors/v{VERSION}`, and the readers that pass
them, as `python3 spec/coverage.py` prints it in CI (which fails when this file is not its table).

"""
READERS = ["rust", "python", "typescript"]


def requirements():
    """(number, level, title) of each requirement, in the order of SPEC.md."""
    out = []
    for line in (ROOT / "spec" / "SPEC.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"### (SK-[A-Z]+-\d{3}) (.*) \((MUST|SHOULD)[^)]*\)$", line)
        if m:
            out.append((m.group(1), m.group(3), m.group(2)))
    return out


def vectors(version):
    """Each vector's id and the requirements it covers, from every file of the version."""
    out = []
    for path in sorted((ROOT / "spec" / "vectors" / f"v{version}").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        out.extend((v["id"], v["covers"]) for v in doc["vectors"])
    return out


def known_differences():
    """(reader, vector id) -> why, from spec/known-differences.txt: `reader vector-id why` lines."""
    path = ROOT / "spec" / "known-differences.txt"
    out = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                reader, vid, why = (line.split(None, 2) + [""])[:3]
                out[(reader, vid)] = why
    return out


def results(reader):
    path = ROOT / "target" / "spec" / f"{reader}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def main(argv):
    required = []
    markdown = None
    if "--require" in argv:
        required = argv[argv.index("--require") + 1].split(",")
    if "--markdown" in argv:
        markdown = argv[argv.index("--markdown") + 1]
    check = argv[argv.index("--check") + 1] if "--check" in argv else None
    reqs = requirements()
    vecs = vectors(VERSION)
    known = {r[0] for r in reqs}
    problems = []
    for vid, covers in vecs:
        for c in covers:
            if c not in known:
                problems.append(f"vector {vid} covers {c}, which SPEC.md has not")
    runs = {r: results(r) for r in READERS}
    known = known_differences()
    levels = {r[0]: r[1] for r in reqs}
    covers_of = dict(vecs)
    for (reader, vid), why in known.items():
        if not any(levels.get(c) == "SHOULD" for c in covers_of.get(vid, [])):
            problems.append(f"known-differences.txt lists {vid} for {reader}: only a vector of a SHOULD requirement may be")
        elif runs.get(reader) is not None and runs[reader].get(vid) is True:
            problems.append(f"known-differences.txt lists {vid} for {reader}, which passes it now: the entry is stale")
    for r in required:
        if runs.get(r) is None:
            problems.append(f"no results of the {r} reader (target/spec/{r}.json)")
    lines = ["| requirement | level | vectors | " + " | ".join(r.capitalize() if r != "typescript" else "TypeScript" for r in READERS) + " |",
             "|---|---|---|" + "---|" * len(READERS)]
    for number, level, title in reqs:
        ids = [vid for vid, covers in vecs if number in covers]
        if not ids:
            problems.append(f"{number} has no vector")
        cells = []
        for r in READERS:
            run = runs[r]
            if run is None:
                cells.append("not run")
                continue
            missing = [i for i in ids if i not in run]
            failed = [i for i in ids if run.get(i) is False and (r, i) not in known]
            if failed:
                cells.append(f"FAILS {', '.join(failed)}")
                problems.append(f"the {r} reader fails {number}: {', '.join(failed)}")
            elif missing:
                cells.append(f"missing {', '.join(missing)}")
                problems.append(f"the {r} reader did not run {', '.join(missing)}")
            else:
                cells.append(f"{len(ids)} passed")
        lines.append(f"| {number} {title} | {level} | {len(ids)} | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print(table)
    document = HEADER + table + "\n"
    if markdown:
        Path(markdown).write_text(document, encoding="utf-8")
    if check and Path(check).read_text(encoding="utf-8") != document:
        problems.append(f"{check} is not this table: python3 spec/coverage.py --markdown {check} rewrites it")
    print()
    print(f"{len(reqs)} requirements, {len(vecs)} vectors; readers with results: "
          + ", ".join(r for r in READERS if runs[r] is not None))
    for p in problems:
        print(f"coverage: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
