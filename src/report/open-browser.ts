import { spawn } from "node:child_process";

function opener(platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === "darwin") return { command: "open", args: [] };
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", '""'] };
  return { command: "xdg-open", args: [] };
}

/** Asks the desktop to open a URL; resolves false when it cannot (no opener, no display), never throws. */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const { command, args } = opener(platform);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, [...args, url], { stdio: "ignore", detached: true });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
