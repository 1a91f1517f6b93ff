#!/usr/bin/env bash
# The main job in one command: weave the leak tracker (examples/leak) into
# the whole JDK and a small program that leaks, run it, and show the report.
#
#   bash examples/leak/run.sh          # the demo leaks: its cache grows
#   bash examples/leak/run.sh fixed    # the cache is bounded: nothing grows
#
# Installs a JDK 17 if javac is missing (Debian/Ubuntu, as root), builds weft
# and the demo from source into $WORK (default /tmp/weft-demo), and caches
# the woven JDK in $WEFT_CACHE (default ~/.cache/weft): the first run weaves
# every module (a minute or so), later runs start at once.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v javac >/dev/null 2>&1; then
  echo "run.sh: installing openjdk-17-jdk-headless" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless >&2
fi
WORK=${WORK:-/tmp/weft-demo}
mkdir -p "$WORK"
go build -o "$WORK/weft" ./cmd/weft
javac -d "$WORK/demo" examples/leak/demo/Requests.java
exec "$WORK/weft" leak -o "$WORK/leak" -- java -Xmx32m -cp "$WORK/demo" Requests "$@"
