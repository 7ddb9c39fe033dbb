import { constants } from "node:fs";
import { join } from "node:path";
import { isRunnable } from "../../executables.js";
import { installedVersion, locateBinary, packageDir } from "../binary-lookup.js";

const PACKAGE = "@qwen-code/qwen-code";
export const INSTALL_COMMAND = `npm install ${PACKAGE}`;

/** The package npm installed beside skillgym, when there is one. */
export function qwenPackageDir(): string | undefined {
  return packageDir(PACKAGE);
}

// Its entry script (run under skillgym's own Node, so readable is enough).
async function bundledScript(): Promise<string | undefined> {
  const dir = qwenPackageDir();
  if (!dir) return undefined;
  const entry = join(dir, "cli-entry.js");
  return (await isRunnable(entry, 0, constants.R_OK)) ? entry : undefined;
}

/** Finds Qwen Code: an explicit path, then the package npm installed beside skillgym, then `qwen` on PATH. */
export function locateQwen(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  bundled: () => Promise<string | undefined> = bundledScript,
): Promise<string> {
  return locateBinary(explicit, env, {
    label: "Qwen Code",
    command: "qwen",
    install: INSTALL_COMMAND,
    bundled,
  });
}

/** The version in the package.json of the package a binary belongs to; undefined for any other binary. */
export function qwenVersion(binary: string): Promise<string | undefined> {
  return installedVersion(binary, 2, (pkg) => pkg.name === PACKAGE);
}
