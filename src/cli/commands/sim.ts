import { appendFileSync } from "node:fs";
import type { Command } from "commander";
import { loadSimScript, startSim } from "../../sim/index.js";
import type { Io } from "../io.js";
import { nonNegativeInt } from "../options.js";

interface SimFlags {
  port?: number;
  script?: string;
  latencyMs?: number;
  log?: string;
}

export function registerSim(program: Command, io: Io): void {
  program
    .command("sim")
    .description(
      "serve a deterministic stand-in for the Anthropic Messages API on 127.0.0.1 (for free dry runs)",
    )
    .option("--port <n>", "port to listen on (default: any free port)", nonNegativeInt)
    .option("--script <file>", "a simulator script (JSON or YAML): rules, steps, faults")
    .option("--latency-ms <n>", "delay before every answer", nonNegativeInt)
    .option("--log <file>", "append every request to this JSON-lines file")
    .action(async (flags: SimFlags) => {
      const script = flags.script ? await loadSimScript(flags.script) : undefined;
      const sim = await startSim({
        ...(flags.port !== undefined ? { port: flags.port } : {}),
        ...(script ? { script } : {}),
        ...(flags.latencyMs !== undefined ? { latencyMs: flags.latencyMs } : {}),
        onRequest: (entry) => {
          io.err(`${entry.time} ${entry.session.slice(0, 8)} turn ${entry.turn}: ${entry.action}\n`);
          if (flags.log) appendFileSync(flags.log, `${JSON.stringify(entry)}\n`);
        },
      });
      io.out(
        `skillgym sim (a stand-in for the Anthropic API; its answers are scripted, not a model's) at ${sim.url}\n` +
          `  ANTHROPIC_BASE_URL=${sim.url} ANTHROPIC_API_KEY=sim claude -p "..."\n` +
          "Ctrl-C stops it.\n",
      );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          void sim.close().then(resolve);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
    });
}
