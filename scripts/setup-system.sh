#!/usr/bin/env bash
# Makes sure the system programs the test suite needs are present: Debian's Chromium (for the
# Playwright e2e tests; nothing here downloads a browser) and redis-server + redis-cli 7.x (the
# conformance suite compares the simulator with the real thing). Installs them with apt when
# missing and we are root on Debian; otherwise says exactly what is missing.
set -u

chromium_bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing_pkgs=()
[ -x "$chromium_bin" ] || missing_pkgs+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing_pkgs+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing_pkgs+=(redis-tools)

if [ ${#missing_pkgs[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing ${missing_pkgs[*]} with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing_pkgs[@]}" >/dev/null; then
    exit 0
  fi
  echo "setup: apt-get could not install ${missing_pkgs[*]}" >&2
else
  echo "setup: missing ${missing_pkgs[*]}; install them (Debian: sudo apt-get install ${missing_pkgs[*]})," >&2
  echo "       or point CHROMIUM_PATH at a Chromium binary." >&2
fi

if [ "${CI:-}" = "true" ]; then
  echo "setup: CI=true and required programs are missing: failing rather than skipping tests." >&2
  exit 1
fi
exit 0
