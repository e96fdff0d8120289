#!/usr/bin/env bash
# The release gate a CI pipeline calls: builds everything the gate needs (the runner and every app
# build's executable), runs `upgrade-runner gate` with the arguments given, and exits with its code.
#
#   ci/release-gate.sh [--shard I/N] [--case-id ID] [--out DIR] [--jobs N] [other gate options]
#
# Exit code: 0 PASS; 1 FAIL; 2 bad usage or input; 3 UNKNOWN (the run did not complete). Every code
# but 0 must fail the pipeline: UNKNOWN fails closed. A failed `swift build`, or a runner killed by a
# signal, exits 3 too: the gate did not give a verdict, so the verdict is unknown.
#
# The artifacts hold the run's inputs (--archive-inputs: every build's manifest, entitlements and
# executable under DIR/inputs/), so `upgrade-runner replay DIR` works on any machine, with no checkout.
#
# Environment: CONFIGURATION=debug|release (default debug; release compiles slower, runs faster);
# ARCHIVE_INPUTS=0 leaves the inputs out (smaller artifacts; replay then needs builds/ and the products).
set -uo pipefail
cd "$(dirname "$0")/.."

configuration="${CONFIGURATION:-debug}"
if ! swift build -c "$configuration" >&2; then
  echo "release-gate: swift build failed; no verdict (exit 3, UNKNOWN)" >&2
  exit 3
fi
bin="$(swift build -c "$configuration" --show-bin-path)"

# The app builds' executables are found through the products folder the runner reads.
archive=(--archive-inputs)
[ "${ARCHIVE_INPUTS:-1}" = 0 ] && archive=()
UPGRADE_RUNNER_PRODUCTS="$bin" "$bin/upgrade-runner" gate "${archive[@]}" "$@"
code=$?
case "$code" in
  0) echo "release-gate: PASS" >&2 ;;
  1) echo "release-gate: FAIL (see gate.json and summary.md in the artifacts folder)" >&2 ;;
  2) echo "release-gate: bad usage or input (the line above names the flag, file or build)" >&2 ;;
  3) echo "release-gate: UNKNOWN: the run did not complete; failing closed" >&2 ;;
  *) echo "release-gate: the runner ended with $code (killed by a signal?); reporting UNKNOWN" >&2
     code=3 ;;
esac
exit "$code"
