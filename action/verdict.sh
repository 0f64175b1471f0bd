#!/usr/bin/env bash
# The step's result is jscr's exit code, given after the SARIF upload so that findings still reach code
# scanning when they fail the job.
set -euo pipefail
code="${JSCR_EXIT_CODE:-}"
case "$code" in
  0) exit 0 ;;
  1) echo "jscr: findings at or above the fail-on severity (exit 1)"; exit 1 ;;
  3) echo "jscr: the review is incomplete (exit 3): a step or scanner did not run; see the summary"; exit 3 ;;
  '' | *[!0-9]*) echo "jscr: the review step did not finish"; exit 2 ;;
  *) echo "jscr: the review could not run (exit $code)"; exit "$code" ;;
esac
