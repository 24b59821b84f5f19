#!/usr/bin/env bash
# Rhizome's two set-up commands (see README):
#   ./dev.sh demo   build Rhizome (release) and tour Vault-Example/
#   ./dev.sh test   build and run the test suite (what CI runs)
# Both install missing system libraries first (apt-get on Debian/Ubuntu, brew on macOS), or stop
# with the exact command to run.
set -euo pipefail
cd "$(dirname "$0")"

say() { printf '\n\033[1m%s\033[0m\n' "$*" >&2; }

ensure_toolchain() {
  if ! command -v swift >/dev/null 2>&1; then
    echo "error: no Swift toolchain on PATH. Install Swift 6 (https://www.swift.org/install), then run this again." >&2
    exit 1
  fi
}

ensure_system_libraries() {
  if [[ "$(uname -s)" == "Darwin" ]]; then
    # SQLite comes with macOS; libyaml comes from Homebrew.
    if ! pkg-config --exists yaml-0.1 2>/dev/null && [[ ! -f /opt/homebrew/include/yaml.h && ! -f /usr/local/include/yaml.h ]]; then
      if command -v brew >/dev/null 2>&1; then
        say "Installing libyaml with Homebrew"
        brew install libyaml pkg-config
      else
        echo "error: libyaml is missing. Install Homebrew (https://brew.sh), then run: brew install libyaml pkg-config" >&2
        exit 1
      fi
    fi
    return
  fi
  local missing=()
  for package in libyaml-dev libsqlite3-dev libjemalloc-dev libcurl4-openssl-dev pkg-config; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  ((${#missing[@]} == 0)) && return
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "error: missing system packages. Run: apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
  fi
  say "Installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

demo() {
  ensure_toolchain
  ensure_system_libraries
  say "Building rhizome (release)"
  # On Linux the Swift runtime and Foundation are linked in: a command starts in about 15 ms instead of 30
  # (Foundation's networking part then needs libcurl's headers, hence libcurl4-openssl-dev).
  if [[ "$(uname -s)" == "Linux" ]]; then
    swift build -c release --product rhizome --static-swift-stdlib
  else
    swift build -c release --product rhizome
  fi
  local rhizome=".build/release/rhizome"
  local vault="Vault-Example"
  say "\$ rhizome index --vault $vault"
  "$rhizome" index --vault "$vault"
  say "\$ rhizome stats"
  "$rhizome" stats --vault "$vault"
  say "\$ rhizome backlinks Rhizome"
  "$rhizome" backlinks Rhizome --vault "$vault"
  say "\$ rhizome unresolved    (exit status 1: it found some)"
  "$rhizome" unresolved --vault "$vault" || [[ $? -eq 1 ]]
  say "\$ rhizome validate    (exit status 1: the vault has deliberately invalid notes)"
  "$rhizome" validate --vault "$vault" || [[ $? -eq 1 ]]
  say "\$ rhizome search \"link resolution\""
  "$rhizome" search "link resolution" --limit 5 --vault "$vault"
  say "\$ rhizome base Reading    (an Obsidian base, Bases/Reading.base)"
  "$rhizome" base Reading --vault "$vault"
  say "Done. The binary is $rhizome; try: $rhizome --help"
}

test_suite() {
  ensure_toolchain
  ensure_system_libraries
  local log
  log=$(mktemp)
  set +e
  swift test --disable-xctest 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  set -e
  local summary
  summary=$(grep -Eo 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  local failed
  failed=$(grep -Ec '^✘ Test .* failed' "$log" || true)
  rm -f "$log"
  if [[ $status -ne 0 ]]; then
    echo "tests failed (swift test exit status $status)" >&2
    [[ -n "$summary" ]] && echo "$((summary - failed)) passed, $failed failed"
    exit "$status"
  fi
  if [[ -z "$summary" || "$summary" -eq 0 ]]; then
    echo "error: swift test ran no tests" >&2
    exit 1
  fi
  echo "$summary passed, 0 failed"
}

case "${1:-}" in
  demo) demo ;;
  test) test_suite ;;
  *) echo "usage: ./dev.sh demo | ./dev.sh test" >&2; exit 2 ;;
esac
