#!/usr/bin/env bash
# Build the search core for the browser: tmphys/web/static/search.wasm, from the C in this folder.
#
# A developer's and CI's tool, not a user's: `pip install .` ships the built module as package data. The build is
# reproducible (same compiler, same bytes); CI builds it again and fails if the bytes differ from the committed file.
# Toolchain, from Debian's packages: apt-get install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32
#
#   tmphys/solve/core/build-wasm.sh [OUT]      (default: tmphys/web/static/search.wasm)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../web/static/search.wasm}
clang=${CLANG:-$(command -v clang-14 || command -v clang)}
# The module's memory: 16 MiB at first, growing to 512 MiB at most (a phone's tab); the engine's memo limit is set
# below it by the page (search.js), so a big search forgets its memo instead of running out.
"$clang" --target=wasm32-wasi --sysroot=/usr -O3 -msimd128 -mbulk-memory -msign-ext -mnontrapping-fptoint -std=c11 -DNDEBUG \
    -fno-ident -ffile-prefix-map="$here"=. \
    -nostartfiles -Wl,--no-entry -Wl,--strip-all -Wl,--gc-sections \
    -Wl,--initial-memory=16777216 -Wl,--max-memory=536870912 -Wl,-z,stack-size=1048576 \
    -o "$out.tmp" "$here/wasm.c" \
    "$here"/{util,setup,memo,bounds,canon,limits,ranking,deep,search,engine,query}.c
mv "$out.tmp" "$out"
echo "$out: $(stat -c %s "$out") bytes"
