import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { SkillgymError } from "../../errors.js";
import { firstRunnable, pathCandidates } from "../../executables.js";
import { environmentSecrets } from "../../redact.js";
import { allowedEnvironment, suiteNames } from "../allowed-env.js";
import { explicitBinary } from "../binary-lookup.js";
import type { AgentFactoryOptions } from "../factory-options.js";
import { walkUpSkillRoots } from "../skill-folders.js";
import type { AcpProfile } from "./profile.js";

/** The program of a command: a path as given (it must exist), a bare name looked up on PATH (exit 3 when missing). */
export async function programOf(program: string, env: NodeJS.ProcessEnv, label: string): Promise<string> {
  const hint = `install ${label}, put it on PATH, or pass its path with --agent-bin`;
  if (/[\\/]/.test(program)) return explicitBinary(program, hint);
  const found = await firstRunnable(pathCandidates(program, env));
  if (found) return found;
  throw new SkillgymError("AGENT_UNAVAILABLE", `${program} was not found on PATH`, { hint });
}

/**
 * Any agent that speaks ACP, by its command (`acp:<command…>`): a fresh home and only the allowed variables (name
 * the ones it needs, such as its API key, in evals.json `env`), skills staged in `.agents/skills`, the most widely
 * read folder. skillgym cannot point an unknown agent at its simulator, so `--simulate` is refused before any run.
 */
export async function genericProfile(
  words: readonly string[],
  options: AgentFactoryOptions,
): Promise<AcpProfile> {
  const base = options.env ?? process.env;
  const shown = words.join(" ");
  if (options.simulatorUrl)
    throw new SkillgymError("USAGE", `--agent acp:${shown} cannot run under --simulate`, {
      hint:
        "skillgym knows how to point only some ACP agents at its simulator: acp:gemini …, acp:qwen … and " +
        "--agent qwen-code; run this one against its real model, without --simulate",
    });
  const command = options.binary ?? (await programOf(words[0]!, base, words[0]!));
  const environment = (home: string) => ({
    ...allowedEnvironment(base, suiteNames(options.passEnv)),
    HOME: home,
    USERPROFILE: home,
    TMPDIR: join(home, "tmp"),
  });
  return {
    label: shown,
    skillsFolder: ".agents/skills",
    builtinSkills: [],
    commandLine: () => ({ command, args: words.slice(1) }),
    environment: ({ home }) => environment(home),
    prepare: async ({ home }) => {
      await mkdir(join(home, "tmp"), { recursive: true });
    },
    skillRoots: async (cwd, home) => [
      ...(await walkUpSkillRoots(cwd, [".agents/skills"])),
      join(home, ".agents", "skills"),
    ],
    // Stryker disable next-line StringLiteral: equivalent, the credentials passed do not depend on the home
    secrets: environmentSecrets(environment("")),
    // skillgym knows no flag of an unknown agent: a model is chosen over the protocol, when the agent offers that.
    modelOverAcp: true,
  };
}
