#!/usr/bin/env bash
# Debian's Chromium for the browser tests (test/browser/, driven by playwright-core:
# no browser download). Idempotent: skips when /usr/bin/chromium is already there.
# Run as root (or with sudo). Without it the browser tests skip with a notice.
set -euo pipefail

if [[ -x /usr/bin/chromium ]]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
${SUDO} apt-get update -qq
${SUDO} apt-get install -y -qq chromium >/dev/null
echo "chromium: $(/usr/bin/chromium --version)"
