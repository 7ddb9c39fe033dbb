#!/usr/bin/env node
// `npm run build`: tsc's modules in dist/ (the library) and the CLI's bundle (dist/cli-bundle/). Every test tier and
// `npm install` (prepare) build first; a build from the same inputs as the one in dist/ is skipped, so a fresh clone
// builds once, not once per tier. The inputs: src/, the build's configs and the lock file (the bundle holds the
// dependencies). `npm run build -- --force` builds anyway.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const stamp = join(root, "dist", ".build-inputs");
const outputs = ["dist/index.js", "dist/cli/main.js", "dist/cli-bundle/main.js"];
const configs = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "rolldown.config.mjs",
];

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function inputsHash() {
  const hash = createHash("sha256");
  const files = [...filesUnder(join(root, "src")), ...configs.map((name) => join(root, name))]
    .filter((file) => existsSync(file))
    .map((file) => relative(root, file).split("\\").join("/"))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const inputs = inputsHash();
const built =
  !process.argv.includes("--force") &&
  outputs.every((file) => existsSync(join(root, file))) &&
  existsSync(stamp) &&
  readFileSync(stamp, "utf8") === inputs;
if (built) {
  console.error("build: dist/ is built from these sources already");
} else {
  run(process.execPath, ["node_modules/typescript-native/bin/tsc", "-p", "tsconfig.build.json", "--noCheck"]);
  run(process.execPath, [
    "node_modules/rolldown/bin/cli.mjs",
    "-c",
    "rolldown.config.mjs",
    "--logLevel",
    "silent",
  ]);
  writeFileSync(stamp, inputs);
}
