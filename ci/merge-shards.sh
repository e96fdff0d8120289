#!/usr/bin/env bash
# The final job's merge, as ci/github-actions.yml calls it: joins the shards' artifact folders into
# one verdict folder and exits with the merged verdict's code (0 PASS, 1 FAIL, 2 bad input, 3 UNKNOWN:
# a missing or unfinished shard). Builds the runner first; a failed build is UNKNOWN (3).
#
#   ci/merge-shards.sh OUT SHARD-FOLDER...
set -uo pipefail
cd "$(dirname "$0")/.."
out="$1"; shift
configuration="${CONFIGURATION:-debug}"
if ! swift build -c "$configuration" --product upgrade-runner >&2; then
  echo "merge-shards: swift build failed; no verdict (exit 3, UNKNOWN)" >&2
  exit 3
fi
bin="$(swift build -c "$configuration" --show-bin-path)"
if [ "$#" -eq 0 ]; then
  echo "merge-shards: no shard folder was downloaded; no verdict (exit 3, UNKNOWN)" >&2
  exit 3
fi
"$bin/upgrade-runner" merge "$@" --out "$out"
code=$?
case "$code" in 0|1|2|3) ;; *) code=3 ;; esac
exit "$code"
