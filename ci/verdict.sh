#!/usr/bin/env bash
# The final job's verdict, as ci/github-actions.yml calls it: the merged verdict's exit code, failing
# closed. MERGE_CODE is the code ci/merge-shards.sh exited with (empty when the merge did not run:
# UNKNOWN); SHARD_RESULT is the shard jobs' combined result (success, failure, cancelled, skipped).
# A merged PASS with a shard job that did not succeed is UNKNOWN (3): a shard that never uploaded
# is reported by merge, but one that uploaded a PASS and then failed is caught only here.
set -u
code="${MERGE_CODE:-3}"
case "$code" in 0|1|2|3) ;; *) code=3 ;; esac
if [ "$code" = 0 ] && [ "${SHARD_RESULT:-}" != success ]; then
  echo "verdict: the merged verdict is PASS but a shard job ended ${SHARD_RESULT:-unknown}; failing closed" >&2
  code=3
fi
exit "$code"
