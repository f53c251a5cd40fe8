#!/usr/bin/env bash
# Takes the guide's screenshot of a hover in Neovim (docs/images/lsp-hover-neovim.png):
# Neovim in an xterm under Xvfb, on a copy of the demo, with screenshot.lua as its init
# file. Needs Debian's neovim, xvfb, xterm and imagemagick.
#
#   editors/neovim/screenshot.sh target/debug/jasset docs/images/lsp-hover-neovim.png
set -euo pipefail
jasset=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cp -r "$here/../../demo" "$work/demo"
display=:97
Xvfb "$display" -screen 0 1100x400x24 > /dev/null 2>&1 &
xvfb=$!
sleep 1
JASSET_COMMAND="$jasset" DISPLAY="$display" xterm -tn xterm-256color -geometry 120x20+0+0 \
    -fa Monospace -fs 11 -bg '#1e1e1e' -fg '#d4d4d4' \
    -e nvim -u "$here/screenshot.lua" \
    "$work/demo/Assets/Worlds/Level01/Entities/RockLargeMossy_001.jasset" &
xterm=$!
sleep 6
DISPLAY="$display" import -window root "$out"
kill "$xterm" "$xvfb"
wait "$xterm" "$xvfb" 2> /dev/null || true
rm -rf "$work"
