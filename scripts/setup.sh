#!/usr/bin/env bash
# Installs what icpic3's build needs on a fresh Debian machine, and nothing when it is there.
# Run by scripts/test.sh and scripts/example.sh, so the README commands work on a new machine.
set -euo pipefail

missing=()
# System tools the build or the tests call, as "command:debian-package". m4 is needed by
# GMP's configure (rug builds GMP and MPFR from source; see docs/dependencies.md).
# The report tests (frontend/tests/c_deadcode_reports.rs): genhtml reads `deadcode --format
# lcov`, headless Chromium renders `deadcode --html`, Python's jsonschema validates SARIF.
for need in "cc:gcc" "make:make" "m4:m4" "genhtml:lcov" "chromium:chromium" "python3:python3"; do
  cmd=${need%%:*}
  pkg=${need#*:}
  command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
done
# 32-bit C builds: the C front end replays ILP32 programs (embedded targets, SV-COMP's ILP32
# tasks) with `gcc -m32`, and `cpp -m32` needs the 32-bit headers
if command -v gcc >/dev/null 2>&1; then
  probe=$(mktemp -d)
  printf 'int main(void) { return 0; }\n' >"$probe/p.c"
  gcc -m32 "$probe/p.c" -o "$probe/p" >/dev/null 2>&1 || missing+=("gcc-multilib")
  rm -rf "$probe"
else
  missing+=("gcc-multilib")
fi

# Python's venv module (Debian splits it off as python3-venv) for the test environment below
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  missing+=("python3-venv")
fi

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi

# Python's jsonschema (SARIF validation in the tests): Debian's package for Debian's python3,
# else from PyPI for the python3 on the PATH
if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
  echo "setup: installing Python's jsonschema" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq python3-jsonschema >/dev/null 2>&1 || true
  python3 -c 'import jsonschema' >/dev/null 2>&1 || python3 -m pip install -q jsonschema
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo (the Rust toolchain) is required" >&2
  exit 1
fi

# The Python packages of the tests (scripts/requirements-test.txt: jsonschema, benchexec,
# z3-solver) in a virtual environment of their own, target/pyenv (Debian's system Python
# refuses pip installs); scripts/test.sh points the tests at it with ICPIC3_PYTHON.
cd "$(dirname "$0")/.."
pyenv=target/pyenv
if ! "$pyenv/bin/python" -c 'import jsonschema, benchexec, z3, yaml' >/dev/null 2>&1; then
  echo "setup: creating $pyenv (jsonschema, benchexec, z3-solver, PyYAML from PyPI)" >&2
  mkdir -p target
  python3 -m venv "$pyenv"
  "$pyenv/bin/python" -m pip install -q --disable-pip-version-check -r scripts/requirements-test.txt
fi
