#!/usr/bin/env bash
# Runs vitest suites under another Node major than the machine's own:
#   scripts/with-node.sh MAJOR [vitest args…]     e.g. scripts/with-node.sh 24 test/action
# Both test tiers run unless the arguments pick one: `--project fast` (npm test) or `--project e2e`.
# The action runs on Node 24 (`runs.using: node24`) and the CLI supports 20.19+, 22 and 24, while
# these machines ship Node 20. The binary comes from the npm registry as an ordinary package
# (node-<platform>-<arch>, which holds bin/node and has no install scripts), into .ci/node<MAJOR>/
# (git-ignored). The `node` package would do the same through a preinstall script that spawns a
# second npm; installing the platform package directly skips that indirection.
set -euo pipefail
cd "$(dirname "$0")/.."

major=${1:?usage: scripts/with-node.sh MAJOR [vitest args…]}
shift
dir=.ci/node$major
pkg=$(node -p '(process.platform === "darwin" && process.arch === "arm64" ? "node-bin-" : "node-") + process.platform + "-" + process.arch')
binary="$dir/node_modules/$pkg/bin/node"

if ! { [ -x "$binary" ] && "$binary" --version | grep -q "^v$major\."; }; then
  npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund "$pkg@$major"
fi
echo "with-node.sh: running vitest $* with Node $("$binary" --version)" >&2

# vitest's fork pool and the tests' spawned CLI and action use process.execPath: this Node.
AUTOJOIN_EXPECT_NODE_MAJOR=$major exec "$binary" node_modules/vitest/vitest.mjs run "$@"
