import { createRequire } from "node:module";
import { firstRunnable } from "../../executables.js";
import { installedVersion, locateBinary } from "../binary-lookup.js";

const PACKAGE = "@github/copilot";
export const INSTALL_COMMAND = `npm install ${PACKAGE}`;

const require = createRequire(import.meta.url);

/** The file an installed package's specifier resolves to from skillgym's own node_modules; else undefined. */
function resolveInstalled(specifier: string): string | undefined {
  try {
    return require.resolve(specifier);
  } catch {}
  return undefined;
}

/** A Linux whose process report names no glibc version is musl (Alpine), as `detect-libc` decides. */
export function isMusl(
  report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined,
): boolean {
  return !report?.header?.glibcVersionRuntime;
}

/**
 * The native binary of each platform package (`@github/copilot-<platform>-<arch>`, which exports nothing but it),
 * resolved as the package's npm-loader.js resolves it, then that loader; calling the binary directly skips a Node
 * start-up.
 */
export function bundledCandidates(
  platform: NodeJS.Platform = process.platform,
  resolve: (specifier: string) => string | undefined = resolveInstalled,
  musl: () => boolean = isMusl,
): string[] {
  const platforms = platform === "linux" ? (musl() ? ["linuxmusl", "linux"] : ["linux"]) : [platform];
  const specifiers = [
    ...platforms.map((name) => `${PACKAGE}-${name}-${process.arch}`),
    `${PACKAGE}/npm-loader.js`,
  ];
  return specifiers
    .map((specifier) => resolve(specifier))
    .filter((file): file is string => file !== undefined);
}

/** Finds GitHub Copilot CLI: an explicit path, then the native binary npm installed, then `copilot` on PATH. */
export function locateCopilot(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  candidates: () => string[] = bundledCandidates,
): Promise<string> {
  return locateBinary(explicit, env, {
    label: "GitHub Copilot CLI",
    command: "copilot",
    install: INSTALL_COMMAND,
    bundled: () => firstRunnable(candidates()),
  });
}

/** How to start a binary: the npm loader (JavaScript) runs under this Node. */
export function commandLine(binary: string, args: string[]): { command: string; args: string[] } {
  if (/\.[cm]?js$/.test(binary)) return { command: process.execPath, args: [binary, ...args] };
  return { command: binary, args };
}

/** The version in the package.json beside a binary npm installed; undefined for any other binary. */
export function copilotVersion(binary: string): Promise<string | undefined> {
  return installedVersion(binary, 1, (pkg) => typeof pkg.name === "string" && pkg.name.startsWith(PACKAGE));
}
