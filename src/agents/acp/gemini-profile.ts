import { SIM_MODEL } from "../../contracts/sim-model.js";
import { environmentSecrets } from "../../redact.js";
import type { AgentFactoryOptions } from "../factory-options.js";
import { builtinSkillsDir, commandLine, geminiVersion, locateGemini } from "../gemini/binary.js";
import { geminiBuiltinSkills } from "../gemini/builtin-skills.js";
import { findGeminiCredentials, type GeminiCredentials } from "../gemini/credentials.js";
import { childEnvironment, prepareHome } from "../gemini/environment.js";
import { skillRoots } from "../gemini/skills.js";
import { listSkills } from "../skill-folders.js";
import { programOf } from "./generic-profile.js";
import type { AcpProfile } from "./profile.js";

const MODEL_FLAGS = ["-m", "--model"];

/**
 * Gemini CLI in ACP mode (`acp:gemini --acp`): the native adapter's home, settings and simulator wiring, with the
 * permissions answered over ACP instead of a policy file. A read-only run asks for its "plan" (read-only) mode.
 */
export async function geminiProfile(
  words: readonly string[],
  options: AgentFactoryOptions,
): Promise<AcpProfile> {
  const base = options.env ?? process.env;
  const binary =
    options.binary ??
    (words[0] === "gemini"
      ? await locateGemini(undefined, base)
      : await programOf(words[0]!, base, "Gemini CLI"));
  const credentials: GeminiCredentials = options.simulatorUrl
    ? { kind: "simulator" }
    : findGeminiCredentials(base);
  const simulated = Boolean(options.simulatorUrl);
  const envOptions = {
    ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
  };
  const environment = (home: string) => childEnvironment({ base, home, credentials, ...envOptions });
  const version = await geminiVersion(binary);
  const builtins = await listSkills([builtinSkillsDir(binary)]);
  const userArgs = words.slice(1);
  return {
    label: `Gemini CLI over ACP (${words.join(" ")})`,
    skillsFolder: ".gemini/skills",
    builtinSkills: builtins.length > 0 ? builtins : geminiBuiltinSkills,
    commandLine: ({ model }) => {
      const named = userArgs.some((arg) => MODEL_FLAGS.includes(arg) || arg.startsWith("--model="));
      // A model named up front also skips Gemini CLI's router request.
      const chosen = model ?? (simulated ? SIM_MODEL : undefined);
      return commandLine(binary, [...userArgs, ...(chosen && !named ? ["-m", chosen] : [])]);
    },
    environment: ({ home }) => environment(home),
    prepare: async ({ home, tools }) => {
      await prepareHome(home, tools, simulated);
    },
    skillRoots: async (cwd, home) => skillRoots(cwd, home),
    // Stryker disable next-line StringLiteral: equivalent, the credentials passed do not depend on the home
    secrets: environmentSecrets(environment("")),
    version,
    sessionMode: (tools) => (tools === "read-only" ? "plan" : undefined),
    // Gemini CLI 0.61 takes the protocol's "resource not found" for a failure: its ACP library rejects with a plain
    // object its ENOENT check cannot read, so every write of a new file failed. Its own file service (which keeps to
    // the workspace) does the reading and writing instead.
    clientFs: false,
  };
}
