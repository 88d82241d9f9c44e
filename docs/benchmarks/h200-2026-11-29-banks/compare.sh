#!/usr/bin/env bash
# compare.sh: the seeds' Thomas grid before (h200-2026-11-29-unitdiag: PCR of the end rows; its call 4, and its call 3 for the double long half) and after (this record's call 3: cyclic reduction), side by side through that record's table.py; writes compare.md here.
# Usage, from the repository root: bash docs/benchmarks/h200-2026-11-29-banks/compare.sh
set -eu
here=docs/benchmarks/h200-2026-11-29-banks
before=docs/benchmarks/h200-2026-11-29-unitdiag
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
tar -xzf "$before/call3.tar.gz" -C "$t"
tar -xzf "$before/call4.tar.gz" -C "$t"
tar -xzf "$here/call3.tar.gz" -C "$t" --transform 's|^call3|now|'
mkdir "$t/cmp"
for f in double-short float-short float-long; do
    for e in csv log; do cp "$t/call4/new-$f.$e" "$t/cmp/old-$f.$e"; done
done
for e in csv log; do cp "$t/call3/new-double-long.$e" "$t/cmp/old-double-long.$e"; done
for f in double-short float-short double-long float-long; do
    for e in csv log; do cp "$t/now/new-$f.$e" "$t/cmp/new-$f.$e"; done
done
python3 "$before/table.py" "$t/cmp" >"$here/compare.md"
