import { spawn } from "node:child_process";

function opener(platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === "darwin") return { command: "open", args: [] };
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", '""'] };
  return { command: "xdg-open", args: [] };
}

/**
 * Asks the desktop to open a URL; resolves false when it cannot (no opener, no display), never throws.
 * An opener still running after `patienceMs` is taken to have worked and is left alone.
 */
export function openInBrowser(
  url: string,
  platform: NodeJS.Platform = process.platform,
  patienceMs = 2500,
): Promise<boolean> {
  const { command, args } = opener(platform);
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const settle = (opened: boolean) => {
      // Stryker disable next-line CallExpression: equivalent, the timer holds nothing up and a second settle changes nothing
      clearTimeout(timer);
      resolve(opened);
    };
    try {
      const child = spawn(command, [...args, url], { stdio: "ignore", detached: true });
      child.once("error", () => settle(false));
      child.once("exit", (code) => settle(code === 0));
      child.once("spawn", () => {
        child.unref();
        timer = setTimeout(() => settle(true), patienceMs);
        timer.unref();
      });
    } catch {
      settle(false);
    }
  });
}
