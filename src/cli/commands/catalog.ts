import type { Command } from "commander";
import { runCatalog } from "../../catalog/index.js";
import { type AgentFlags, createSetup, withAgentOptions } from "../agent-setup.js";
import { type CiFlags, withShardOption } from "../ci-flags.js";
import type { Io } from "../io.js";
import { idList, interruptSignal, positiveInt, positiveNumber } from "../options.js";
import { catalogReporter, formatCatalogResults } from "../reporters/catalog-progress.js";
import { type StoreFlags, storeRequest, withStoreOptions } from "../store-flags.js";

interface CatalogFlags extends AgentFlags, StoreFlags, Pick<CiFlags, "shard"> {
  maxCost?: number;
  workspace?: string;
  runs: number;
  only?: string[];
  concurrency: number;
  timeout: number;
  model?: string;
  json?: boolean;
}

export function registerCatalog(program: Command, io: Io): void {
  withShardOption(
    withStoreOptions(
      withAgentOptions(
        program
          .command("catalog")
          .description("install a folder of skills together and see which skill each one's queries fire")
          .argument("<dir>", "a folder holding one folder per skill"),
      ),
    ),
  )
    .option("--runs <n>", "runs per query", positiveInt, 3)
    .option("--only <skills>", "ask only these skills' queries (every skill is still installed)", idList)
    .option("--concurrency <n>", "runs at once", positiveInt, 8)
    .option("--timeout <seconds>", "per-run limit", positiveInt, 180)
    .option("--model <model>", "the agent's model")
    .option("--workspace <dir>", "where catalog-<N>/ folders are written (default: <dir>-workspace)")
    .option("--max-cost <usd>", "stop scheduling new runs before this much is spent", positiveNumber)
    .option("--json", "print catalog.json")
    .action(async (dir: string, flags: CatalogFlags) => {
      const setup = createSetup(flags);
      const interrupt = interruptSignal(() =>
        io.err("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n"),
      );
      try {
        const summary = await runCatalog({
          dir,
          ...(flags.workspace ? { workspace: flags.workspace } : {}),
          runs: flags.runs,
          ...(flags.only ? { only: flags.only } : {}),
          concurrency: flags.concurrency,
          timeoutSeconds: flags.timeout,
          ...(flags.model ? { model: flags.model } : {}),
          store: storeRequest(flags),
          ...(flags.shard ? { shard: flags.shard } : {}),
          ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}),
          signal: interrupt.signal,
          reporter: catalogReporter(io),
          createAgent: (suiteDir) => setup.agent(suiteDir),
        });
        if (summary.cancelled && summary.budgetExhausted)
          io.err("stopped scheduling runs: --max-cost reached; run it again to resume\n");
        if (flags.json) io.out(`${JSON.stringify(summary.results, null, 2)}\n`);
        else
          io.out(
            `${formatCatalogResults(summary.results)}  ${summary.reused} run(s) served by the result store\n  ${summary.cancelled ? "(interrupted; not written: run it again to resume)" : summary.resultsFile}\n`,
          );
        if (summary.cancelled) io.setExitCode(130);
      } finally {
        interrupt.dispose();
        await setup.close();
      }
    });
}
