import type { Command } from "commander";
import { type CatalogOptions, planCatalog, runCatalog } from "../../catalog/index.js";
import { parseConditionNames } from "../../triggers/index.js";
import { type AgentFlags, checkCredentials, createSetup, withAgentOptions } from "../agent-setup.js";
import { type CiFlags, withShardOption } from "../ci-flags.js";
import type { Io } from "../io.js";
import { idList, interruptSignal, positiveInt, positiveNumber } from "../options.js";
import {
  catalogFilesLines,
  catalogPlanLines,
  catalogReporter,
  formatCatalogResults,
  skippedLines,
} from "../reporters/catalog-progress.js";
import { screenNote } from "../reporters/screen-line.js";
import { type ScreenFlags, screenOf, withScreenOptions } from "../screen-flags.js";
import { type StoreFlags, storeRequest, withStoreOptions } from "../store-flags.js";

interface CatalogFlags extends AgentFlags, StoreFlags, ScreenFlags, Pick<CiFlags, "shard"> {
  maxCost?: number;
  workspace?: string;
  runs: number;
  only?: string[];
  concurrency: number;
  timeout: number;
  model?: string;
  projectRoot?: string;
  installed?: string[];
  context?: string;
  conditions?: string[];
  dryRun?: boolean;
  json?: boolean;
}

// The shared flags say what they do for a skill's suite; in catalog they act on the catalog folder.
const CATALOG_HELP: Record<string, string> = {
  "--shard":
    "make only the i-th of n parts of the catalog's (skill, query, run) units, in a catalog-<N> folder of its own; " +
    "skillgym merge does not join catalogs: run catalog once more without --shard and with the shards' --cache " +
    "for the whole matrix, every run then served by the store",
  "--sim-script":
    "with --simulate, the simulator script that routes the catalog's queries (default: sim-script.json in <dir>, " +
    'the catalog folder; "skill": "~<name>-sg-" sends a query to that skill)',
};

function describeInCatalogTerms(command: Command): Command {
  for (const option of command.options) {
    const help = option.long ? CATALOG_HELP[option.long] : undefined;
    if (help) option.description = help;
  }
  return command;
}

export function registerCatalog(program: Command, io: Io): void {
  const command = withScreenOptions(
    withShardOption(
      withStoreOptions(
        withAgentOptions(
          program
            .command("catalog")
            .description("install a folder of skills together and see which skill each one's queries fire")
            .argument("<dir>", "a folder holding one folder per skill, each with its SKILL.md"),
        ),
      ),
    ),
    'decide catalog runs before the agent starts: "replay" sends the library\'s captured first request with each query and lets the agent make only the runs its first turn leaves open (needs an API key); "none": the agent makes every run (the default)',
  )
    .option("--runs <n>", "runs per query", positiveInt, 3)
    .option("--only <skills>", "ask only these skills' queries (every skill is still installed)", idList)
    .option("--concurrency <n>", "runs at once", positiveInt, 8)
    .option("--timeout <seconds>", "per-run limit", positiveInt, 180)
    .option("--model <model>", "the agent's model")
    .option("--workspace <dir>", "where catalog-<N>/ folders are written (default: <dir>-workspace)")
    .option("--max-cost <usd>", "stop scheduling new runs before this much is spent", positiveNumber)
    .option("--project-root <dir>", "the user's project: each catalog run starts in a copy of it")
    .option(
      "--installed <dirs>",
      "comma-separated folders of skill folders (e.g. a copy of ~/.claude/skills): every skill in them installed beside the library, as a rival",
      idList,
    )
    .option(
      "--context <file>",
      "a prior conversation (JSON: [{role, content}, …]) each catalog run continues before its query (Claude Code)",
    )
    .option(
      "--conditions <names>",
      '"real" (the --project-root, --installed and --context given; the default) or "clean" (none of them); not both: a catalog is one matrix',
      idList,
    )
    .option(
      "--dry-run",
      "print the plan (skills, queries, runs, what the store serves, a rough cost and wall time) and check the credentials; start nothing",
    )
    .option("--json", "print catalog.json (with --dry-run: the plan)");
  describeInCatalogTerms(command).action(async (dir: string, flags: CatalogFlags) => {
    const setup = createSetup(flags);
    const interrupt = interruptSignal(() =>
      io.err("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n"),
    );
    const screen = screenOf(flags);
    const options: CatalogOptions = {
      dir,
      ...(flags.workspace ? { workspace: flags.workspace } : {}),
      runs: flags.runs,
      ...(flags.only ? { only: flags.only } : {}),
      concurrency: flags.concurrency,
      timeoutSeconds: flags.timeout,
      ...(flags.model ? { model: flags.model } : {}),
      store: storeRequest(flags),
      ...(flags.shard ? { shard: flags.shard } : {}),
      maxCostUsd: flags.maxCost,
      ...(flags.projectRoot ? { project: flags.projectRoot } : {}),
      ...(flags.installed ? { installed: flags.installed } : {}),
      ...(flags.context ? { context: flags.context } : {}),
      ...(screen ? { screen } : {}),
      signal: interrupt.signal,
      reporter: catalogReporter(io),
      createAgent: (suiteDir) => setup.agent(suiteDir),
    };
    try {
      if (flags.conditions) options.conditions = parseConditionNames(flags.conditions);
      if (flags.dryRun) {
        const plan = await planCatalog(options, flags.simulate === true);
        for (const line of skippedLines(plan.skipped)) io.err(`${line}\n`);
        // A real catalog without a login fails here, as it would before its first run (exit 3).
        const credentials = flags.simulate
          ? "credentials: none needed (simulated)"
          : await checkCredentials(setup, flags, {});
        if (flags.json) io.out(`${JSON.stringify(plan, null, 2)}\n`);
        else io.out(`${[...catalogPlanLines(plan), credentials, "nothing was started"].join("\n")}\n`);
        return;
      }
      const summary = await runCatalog(options);
      if (summary.cancelled && summary.budgetExhausted)
        io.err("stopped scheduling runs: --max-cost reached; run it again to resume\n");
      const screened = screenNote(summary.results, "catalog runs");
      if (flags.json) io.out(`${JSON.stringify(summary.results, null, 2)}\n`);
      else
        io.out(
          `${formatCatalogResults(summary.results)}  ${summary.reused} run(s) served by the result store\n` +
            (screened ? `${screened}\n` : "") +
            `${catalogFilesLines(summary).join("\n")}\n`,
        );
      if (summary.cancelled) io.setExitCode(130);
    } finally {
      interrupt.dispose();
      await setup.close();
    }
  });
}
