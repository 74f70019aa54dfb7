#!/usr/bin/env bash
# Installs what the web app's browser test needs (WebAppBrowserTests, Tools/browser_check.py),
# only when missing: Debian's Chromium (the browser, driven headless) and Playwright from PyPI,
# pinned, which drives it (its own browser downloads are not used: there is no internet for them).
set -euo pipefail
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
if ! dpkg -s chromium >/dev/null 2>&1; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq chromium >/dev/null
fi
playwright_version=1.65.2
if [ "$(python3 -c 'import importlib.metadata as m; print(m.version("playwright"))' 2>/dev/null)" != "$playwright_version" ]; then
  python3 -m pip install -q "playwright==$playwright_version" 2>/dev/null || python3 -m pip install -q --break-system-packages "playwright==$playwright_version"
fi
