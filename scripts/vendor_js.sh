#!/usr/bin/env bash
# Re-vendor the workbench's JavaScript from the npm registry (needs node and npm):
#   scripts/vendor_js.sh            the versions pinned below
# Copies each package's minified build and licence into manoeuvre_sim/web/static/vendor/;
# then update VENDORED.md's table (versions, sha256) and run the web tests.
set -euo pipefail
cd "$(dirname "$0")/.."
V=manoeuvre_sim/web/static/vendor
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
(cd "$T" && npm init -y >/dev/null && npm install --no-audit --no-fund \
  htmx.org@2.0.11 vega@5.33.1 vega-lite@5.23.0 vega-embed@6.29.0 >/dev/null)
N="$T/node_modules"
cp "$N/htmx.org/dist/htmx.min.js" "$N/vega/build/vega.min.js" \
   "$N/vega-lite/build/vega-lite.min.js" "$N/vega-embed/build/vega-embed.min.js" "$V/"
cp "$N/htmx.org/LICENSE" "$V/LICENSE-htmx.txt"
cp "$N/vega-lite/LICENSE" "$V/LICENSE-vega-lite.txt"
cp "$N/vega-embed/LICENSE" "$V/LICENSE-vega-embed.txt"
# vega's npm package carries no LICENSE file: its BSD-3-Clause text is vega-lite's, same holder
sed 's/Copyright (c) 2015,/Copyright (c) 2015-2023,/' "$N/vega-lite/LICENSE" > "$V/LICENSE-vega.txt"
sha256sum "$V"/*.js
