#!/usr/bin/env bash
# The Action's review step: works out the range from the event, runs jscr from the Action's own
# checkout with --format github (annotations, and the step summary through GITHUB_STEP_SUMMARY), keeps
# the report in the chosen format, and decides whether SARIF may be uploaded. Never fails the step
# itself: verdict.sh does, after the upload. Inputs arrive as INPUT_* environment variables.
set -uo pipefail

say() { printf '%s\n' "$*" >&2; }
output() { printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:-/dev/null}"; }
summary() { printf '%s\n' "$*" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"; }
# One field of the event payload (a JSON path such as pull_request.base.ref), empty when absent.
event() {
  [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ] || return 0
  node -e '
    let v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const k of process.argv[2].split(".")) v = v == null ? undefined : v[k];
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") process.stdout.write(String(v));
  ' "$GITHUB_EVENT_PATH" "$1"
}
# Make sure `rev` is in the local clone (actions/checkout fetches one commit by default).
have() { git rev-parse --verify --quiet "$1^{commit}" >/dev/null; }
fetch_if_missing() {
  have "$2" && return 0
  say "jscr: fetching $1 (for a shallow checkout, actions/checkout with fetch-depth: 0 avoids this)"
  git fetch --no-tags --quiet origin "$1" || true
}
# Make sure origin/<branch> is in the clone, with enough history for its merge base with `rev`.
fetch_branch() {
  fetch_if_missing "+refs/heads/$1:refs/remotes/origin/$1" "refs/remotes/origin/$1"
  if ! git merge-base "refs/remotes/origin/$1" "$2" >/dev/null 2>&1 && [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    git fetch --no-tags --quiet --unshallow origin "+refs/heads/$1:refs/remotes/origin/$1" || true
  fi
}
fail_setup() {
  echo "::error title=jscr::$1"
  summary "**jscr could not run:** $1"
  output exit-code 2
  exit 0
}

jscr=(node "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}/bin/jscr")
cd "${GITHUB_WORKSPACE:-.}" || fail_setup "the workspace ${GITHUB_WORKSPACE:-.} does not exist"

range="${INPUT_RANGE:-}"
commit=''
if [ -z "$range" ]; then
  case "${GITHUB_EVENT_NAME:-}" in
    pull_request | pull_request_target)
      base="$(event pull_request.base.ref)"
      [ -n "$base" ] || base="${GITHUB_BASE_REF:-}"
      [ -n "$base" ] || fail_setup "no base branch in the pull_request event; set the range input"
      fetch_branch "$base" HEAD
      # The pull request's own head, not what the workspace holds: under pull_request_target
      # actions/checkout leaves the base branch there, and origin/<base>...HEAD would be an empty
      # change, a clean review of every pull request. HEAD stands only when it contains the head
      # commit (pull_request's merge commit). Reading the commits runs nothing of them.
      head=HEAD
      head_sha="$(event pull_request.head.sha)"
      if [ -z "$head_sha" ]; then
        [ "${GITHUB_EVENT_NAME:-}" != pull_request_target ] || fail_setup "no head commit (pull_request.head.sha) in the pull_request_target event; set the range input"
      else
        fetch_if_missing "$head_sha" "$head_sha"
        # A head commit that cannot be had stays named: jscr then cannot resolve it (exit 2).
        git merge-base --is-ancestor "$head_sha" HEAD 2>/dev/null || head="$head_sha"
      fi
      # The SARIF upload names the commit it is about; by default that is the workflow's (the base's,
      # under pull_request_target), which would file the pull request's findings against the base
      # branch. When the head commit is what is reviewed, name it and the pull request's head ref.
      number="$(event pull_request.number)"
      if [ "$head" != HEAD ] && [ -n "$number" ]; then
        sarif_sha="$head_sha"
        sarif_ref="refs/pull/$number/head"
      fi
      range="origin/$base...$head"
      ;;
    push)
      before="$(event before)"
      after="$(event after)"
      [ -n "$after" ] || after="${GITHUB_SHA:-HEAD}"
      if [ -z "$before" ] || [ -z "${before//0/}" ]; then
        # A new branch: every commit it adds, from its merge base with the default branch (its last
        # commit alone would leave the ones below unreviewed, and read a .jscr.toml they wrote). A
        # repository's first push, or a branch sharing no history with the default branch: its last
        # commit (--commit, so that a first commit is reviewed against the empty tree).
        commit="$after"
        default="$(event repository.default_branch)"
        if [ -n "$default" ] && [ "$(event ref)" != "refs/heads/$default" ]; then
          fetch_branch "$default" "$after"
          if git merge-base "refs/remotes/origin/$default" "$after" >/dev/null 2>&1; then
            commit=''
            range="origin/$default...$after"
          else
            say "jscr: the new branch shares no history with origin/$default; reviewing its last commit only"
          fi
        fi
      else
        fetch_if_missing "$before" "$before"
        range="$before..$after"
      fi
      ;;
    *) commit=HEAD ;; # the last commit, a first commit included
  esac
fi

# SARIF goes to code scanning only with a token that may write security events: not on a pull
# request from a fork (or from Dependabot), where GitHub hands out a read-only token.
readonly_token=false
if [ "${GITHUB_EVENT_NAME:-}" = pull_request ]; then
  head_repo="$(event pull_request.head.repo.full_name)"
  if { [ -n "$head_repo" ] && [ "$head_repo" != "${GITHUB_REPOSITORY:-}" ]; } || [ "${GITHUB_ACTOR:-}" = 'dependabot[bot]' ]; then
    readonly_token=true
  fi
fi
case "${INPUT_SARIF:-auto}" in
  auto) if [ "$readonly_token" = true ]; then upload=false; else upload=true; fi ;;
  true) upload=true ;;
  false) upload=false ;;
  *) fail_setup "the sarif input must be auto, true or false (got: ${INPUT_SARIF})" ;;
esac
if [ "$upload" = true ] && [ "$readonly_token" = true ]; then
  say "jscr: sarif is true, but this pull request's token is read-only; the upload will fail"
fi

format="${INPUT_FORMAT:-sarif}"
case "$format" in
  sarif | json | markdown | text) ;;
  *) fail_setup "the format input must be sarif, json, markdown or text (got: $format)" ;;
esac
if [ -n "$commit" ]; then
  change="commit $commit"
  common=(--commit "$commit")
else
  change="$range"
  common=(--range "$range")
fi
[ -z "${INPUT_FAIL_ON:-}" ] || common+=(--fail-on "$INPUT_FAIL_ON")
[ -z "${INPUT_CONFIG:-}" ] || common+=(--config "$INPUT_CONFIG")

out="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/jscr-report"
mkdir -p "$out"
report="$out/report.$([ "$format" = markdown ] && echo md || echo "$format")"

say "jscr: reviewing $change"
"${jscr[@]}" review "${common[@]}" --format github
code=$?
output exit-code "$code"
# The kept report (and SARIF, when it is to be uploaded) come from the same change and settings.
"${jscr[@]}" review "${common[@]}" --quiet --format "$format" --output "$report" >/dev/null 2>&1
[ -f "$report" ] && output report-file "$report"
if [ "$format" = sarif ]; then
  sarif="$report"
elif [ "$upload" = true ]; then
  sarif="$out/report.sarif"
  "${jscr[@]}" review "${common[@]}" --quiet --format sarif --output "$sarif" >/dev/null 2>&1
fi
if [ -n "${sarif:-}" ] && [ -f "$sarif" ]; then output sarif-file "$sarif"; fi
if [ "$upload" = true ] && [ -n "${sarif:-}" ] && [ -f "$sarif" ]; then output upload-sarif true; else output upload-sarif false; fi
# Both or neither: upload-sarif refuses a ref without a sha.
if [ -n "${sarif_sha:-}" ]; then output sarif-ref "$sarif_ref"; output sarif-sha "$sarif_sha"; fi

if [ "$readonly_token" = true ] && [ "$upload" = false ]; then
  note="This pull request comes from a fork, so its token is read-only: the SARIF report was not uploaded to code scanning. The findings are in the annotations and this summary."
  echo "::notice title=jscr::$note"
  summary ""
  summary "> $note"
fi
exit 0
