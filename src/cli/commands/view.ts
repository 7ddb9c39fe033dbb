import type { Command } from "commander";
import { SkillgymError } from "../../errors.js";
import { openInBrowser, startViewServer, writeStaticViewer } from "../../report/index.js";
import { locateTriggersFile } from "../../report/triggers-file.js";
import { startTriggersServer } from "../../report/triggers-server.js";
import type { Io } from "../io.js";
import { nonNegativeInt } from "../options.js";

interface ViewFlags {
  port: number;
  static?: string;
  open: boolean;
  triggers?: boolean;
}

function untilStopped(close: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

export const defaultViewPort = 3117;

export function registerView(program: Command, io: Io): void {
  program
    .command("view")
    .description("review a workspace in the browser: outputs, grades, benchmark, triggers, feedback")
    .argument(
      "<folder>",
      "a skill's workspace (every iteration) or one iteration-<N> folder; with --triggers, the skill",
    )
    .option(
      "--port <n>",
      `port on 127.0.0.1 (default ${defaultViewPort}; a free one if taken)`,
      nonNegativeInt,
    )
    .option("--static <file>", "write one self-contained HTML file instead of serving")
    .option("--no-open", "do not open a browser")
    .option("--triggers", "review and edit the skill's trigger queries (triggers.json) instead")
    .action(async (folder: string, flags: ViewFlags) => {
      if (flags.triggers) {
        if (flags.static) throw new SkillgymError("USAGE", "--triggers edits files; it has no --static form");
        const file = await locateTriggersFile(folder);
        const asked = flags.port ?? defaultViewPort;
        const server = await startTriggersServer({ file, port: asked });
        if (server.portWasTaken) io.err(`port ${asked} is taken; using ${server.port}\n`);
        io.out(`skillgym view --triggers: ${server.url}  (${file})\nCtrl-C stops it.\n`);
        if (flags.open && !(await openInBrowser(server.url)))
          io.err(`could not open a browser; open ${server.url}\n`);
        await untilStopped(server.close);
        return;
      }
      if (flags.static) {
        const file = await writeStaticViewer(folder, flags.static);
        io.out(`wrote ${file}\n`);
        if (flags.open) await openInBrowser(file);
        return;
      }
      const asked = flags.port ?? defaultViewPort;
      const server = await startViewServer({ folder, port: asked });
      if (server.portWasTaken) io.err(`port ${asked} is taken; using ${server.port}\n`);
      io.out(`skillgym view: ${server.url}  (${server.target.path})\nCtrl-C stops it.\n`);
      if (flags.open && !(await openInBrowser(server.url)))
        io.err(`could not open a browser; open ${server.url}\n`);
      await untilStopped(server.close);
    });
}
