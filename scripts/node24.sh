#!/usr/bin/env bash
# Runs the GitHub Action's tests under Node 24, the runtime `runs.using: node24` gives the action,
# while this machine ships an older Node. The Node 24 binary comes from the npm registry as an
# ordinary package (node-<platform>-<arch>, which holds bin/node and has no install scripts), into
# .ci/node24/ (git-ignored). The `node` package would do the same through a preinstall script that
# spawns a second npm; installing the platform package directly skips that indirection.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=.ci/node24
pkg=$(node -p '(process.platform === "darwin" && process.arch === "arm64" ? "node-bin-" : "node-") + process.platform + "-" + process.arch')
node24="$dir/node_modules/$pkg/bin/node"

if ! { [ -x "$node24" ] && "$node24" --version | grep -q '^v24\.'; }; then
  npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund "$pkg@24"
fi
echo "node24.sh: running test/action with $("$node24" --version)" >&2

# vitest's fork pool and the tests' spawned `node dist/action.js` both use process.execPath: Node 24.
AUTOJOIN_EXPECT_NODE_MAJOR=24 exec "$node24" node_modules/vitest/vitest.mjs run test/action "$@"
