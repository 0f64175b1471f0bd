#!/usr/bin/env bash
# Installs and builds jscr inside the Action's own checkout, from its own lockfile (npm ci), so the
# version that runs is the one the workflow pinned (jscr-dev/jscr@<ref>).
set -euo pipefail
cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"

major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 20 ]; then
  echo "::error title=jscr::jscr needs Node 20 or later on the runner (found: $(node --version 2>/dev/null || echo none)); add actions/setup-node before this step"
  exit 2
fi
if [ -f dist/jscr.mjs ] && [ -d node_modules ]; then
  exit 0 # already installed by an earlier use of the Action in this job
fi
# --ignore-scripts: no dependency runs an install script; the one build step is run explicitly.
npm ci --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error
node tools/build.mjs
