import { join } from "node:path";
import { SIM_MODEL } from "../../contracts/sim-model.js";
import { environmentSecrets } from "../../redact.js";
import type { AcpProfile } from "../acp/profile.js";
import type { AgentFactoryOptions } from "../factory-options.js";
import { commandLine } from "../gemini/binary.js";
import { listSkills } from "../skill-folders.js";
import { qwenPackageDir as installedQwenPackageDir, locateQwen, qwenVersion } from "./binary.js";
import { findQwenCredentials, type QwenCredentials } from "./credentials.js";
import { prepareQwenHome, qwenEnvironment } from "./environment.js";
import { qwenBuiltinSkills, qwenSkillRoots } from "./skills.js";

/** The command `--agent qwen-code` runs: Qwen Code's ACP mode. */
export const QWEN_COMMAND = ["qwen", "--acp"];

const MODEL_FLAGS = ["-m", "--model"];

/**
 * Qwen Code over ACP: a home of its own with its settings, an OpenAI-compatible endpoint (the simulator's Chat
 * Completions under `--simulate`), approval mode "default" so that edits and commands are asked of skillgym, and
 * "plan" (read-only) for a read-only run.
 */
export async function qwenProfile(
  words: readonly string[],
  options: AgentFactoryOptions,
  qwenPackageDir: () => string | undefined = installedQwenPackageDir,
): Promise<AcpProfile> {
  const base = options.env ?? process.env;
  const binary = await locateQwen(options.binary, base);
  const credentials: QwenCredentials = options.simulatorUrl
    ? { kind: "simulator" }
    : findQwenCredentials(base);
  const simulated = Boolean(options.simulatorUrl);
  const environmentFor = (home: string, model: string) =>
    qwenEnvironment({
      base,
      home,
      credentials,
      simulator: options.simulatorUrl ? { url: options.simulatorUrl, model } : undefined,
      passEnv: options.passEnv,
    });
  const packageDir = qwenPackageDir();
  const bundled = packageDir ? await listSkills([join(packageDir, "bundled")]) : [];
  const userArgs = words.slice(1);
  return {
    label: `Qwen Code over ACP (${words.join(" ")})`,
    skillsFolder: ".qwen/skills",
    builtinSkills: bundled.length > 0 ? bundled : qwenBuiltinSkills,
    commandLine: ({ model, tools }) => {
      const args = [...userArgs];
      if (!args.includes("--approval-mode"))
        args.push("--approval-mode", tools === "read-only" ? "plan" : "default");
      const named = args.some((arg) => MODEL_FLAGS.includes(arg) || arg.startsWith("--model="));
      if (model && !named) args.push("-m", model);
      return commandLine(binary, args);
    },
    environment: ({ home, model }) => environmentFor(home, model ?? SIM_MODEL),
    prepare: async ({ home }) => {
      await prepareQwenHome(home, simulated);
    },
    skillRoots: qwenSkillRoots,
    // Stryker disable next-line StringLiteral: equivalent, the home holds no secret
    secrets: environmentSecrets(environmentFor("", SIM_MODEL)),
    version: await qwenVersion(binary),
    sessionMode: (tools) => (tools === "read-only" ? "plan" : undefined),
  };
}
