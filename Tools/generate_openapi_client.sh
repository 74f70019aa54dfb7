#!/usr/bin/env bash
# Generates the Swift client the tests run against `reel serve` (Tests/OpenAPIClientTests) from
# the served document (Schemas/service/openapi.json), with swift-openapi-generator, as an app
# would: the operations named in Tests/OpenAPIClientTests/openapi-generator-config.yaml, the
# types and the client. The generator is built once in a scratch package outside the checkout
# (it is not a dependency of Reel: its build plugin would cost every clean build minutes), and
# the generated files are committed with the SHA-256 of the document they came from, which a
# test compares with the document's: edit the document, then run this.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version=1.14.3
scratch="${TMPDIR:-/tmp}/reel-openapi-generator-$version"
mkdir -p "$scratch"
cat > "$scratch/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "generator", dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "$version")])
SWIFT
(cd "$scratch" && swift build --product swift-openapi-generator >/dev/null)
out="$root/Tests/OpenAPIClientTests/Generated"
rm -rf "$out" && mkdir -p "$out"
"$scratch/.build/debug/swift-openapi-generator" generate "$root/Schemas/service/openapi.json" \
  --config "$root/Tests/OpenAPIClientTests/openapi-generator-config.yaml" --output-directory "$out" 2>&1 \
  | { grep '^warning' || true; } > "$out/../generator-warnings.txt"
sha256sum "$root/Schemas/service/openapi.json" | cut -d' ' -f1 > "$out/../openapi.sha256"
echo "generated $(ls "$out" | wc -l) files from the document $(cat "$out/../openapi.sha256")"
