#!/usr/bin/env bash
# Runs the GitHub Action's steps (action.yml) locally against a repository, the way a runner would:
# the Action is copied from this checkout and installed from its own lockfile, the repository is
# cloned as actions/checkout does, the event payload and the GITHUB_* files are made up, and the same
# scripts run. The SARIF upload step cannot run off GitHub; the script says whether it would.
#
#   tools/action-local.sh [--event pull_request|push] [--base BRANCH] [--head BRANCH] [--fork]
#                         [--new-branch] [--input NAME=VALUE]... REPOSITORY
#
# --new-branch makes the push event that of a branch's first push (GitHub sends "before" as zeros).
#
# JSCR_ACTION_PATH=dir reuses an Action copy installed by an earlier run. The run's files are left in
# the folder printed at the end (JSCR_ACTION_WORK=dir chooses it).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
event=pull_request
base=main
head=''
fork=false
new_branch=false
inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --event) event="$2"; shift 2 ;;
    --base) base="$2"; shift 2 ;;
    --head) head="$2"; shift 2 ;;
    --fork) fork=true; shift ;;
    --new-branch) new_branch=true; shift ;;
    --input) inputs+=("$2"); shift 2 ;;
    -*) echo "action-local: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "usage: tools/action-local.sh [options] REPOSITORY" >&2; exit 2; }
repository="$(cd "$1" && pwd)"
case "$event" in pull_request | push) ;; *) echo "action-local: --event must be pull_request or push" >&2; exit 2 ;; esac

work="${JSCR_ACTION_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/jscr-action-local-XXXXXX")}"
mkdir -p "$work/runner-temp"

# The Action as a runner downloads it: the files of this checkout (tracked or new, not ignored).
action="${JSCR_ACTION_PATH:-}"
if [ -z "$action" ]; then
  action="$work/action"
  mkdir -p "$action"
  # shellcheck disable=SC2016 # the inner script is sh -c text
  (cd "$here" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh | tar -c --null -T - -f -) | tar -x -C "$action"
fi

# The workspace as actions/checkout leaves it: a clone with origin, on the head commit.
workspace="$work/workspace"
rm -rf "$workspace"
git clone --quiet --no-local "$repository" "$workspace"
[ -z "$head" ] || git -C "$workspace" checkout --quiet "$head"
after="$(git -C "$workspace" rev-parse HEAD)"

if [ "$event" = pull_request ]; then
  head_repo=acme/app
  [ "$fork" = false ] || head_repo=stranger/app
  printf '{"pull_request":{"base":{"ref":"%s"},"head":{"repo":{"full_name":"%s"}}},"repository":{"full_name":"acme/app"}}\n' "$base" "$head_repo" >"$work/event.json"
else
  before=0000000000000000000000000000000000000000
  [ "$new_branch" = true ] || before="$(git -C "$workspace" rev-parse "$base")"
  printf '{"before":"%s","after":"%s","repository":{"full_name":"acme/app"}}\n' "$before" "$after" >"$work/event.json"
fi
: >"$work/summary.md"
: >"$work/output.txt"

export GITHUB_ACTIONS=true CI=true GITHUB_ACTION_PATH="$action" GITHUB_WORKSPACE="$workspace" GITHUB_EVENT_NAME="$event" \
  GITHUB_EVENT_PATH="$work/event.json" GITHUB_REPOSITORY=acme/app GITHUB_SHA="$after" GITHUB_STEP_SUMMARY="$work/summary.md" \
  GITHUB_OUTPUT="$work/output.txt" RUNNER_TEMP="$work/runner-temp"
[ "$event" != pull_request ] || export GITHUB_BASE_REF="$base"

# The steps of action.yml, in order, with the inputs as the runner passes them (INPUT_*).
bash "$action/action/install.sh"
(
  export INPUT_RANGE='' INPUT_FAIL_ON='' INPUT_FORMAT=sarif INPUT_CONFIG='' INPUT_SARIF=auto
  for pair in "${inputs[@]}"; do
    name="${pair%%=*}"
    name="${name//-/_}"
    export "INPUT_${name^^}=${pair#*=}"
  done
  bash "$action/action/review.sh"
)
value() { sed -n "s/^$1=//p" "$work/output.txt" | tail -n 1; }
if [ "$(value upload-sarif)" = true ]; then
  echo "action-local: the Action would upload $(value sarif-file) to code scanning"
else
  echo "action-local: the Action would not upload SARIF"
fi
echo "action-local: summary $work/summary.md, outputs $work/output.txt"
JSCR_EXIT_CODE="$(value exit-code)" bash "$action/action/verdict.sh"
