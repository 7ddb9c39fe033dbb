import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Where Gemini CLI finds skills for a run: the trusted workspace first (no walk up), then the run's home. */
export function skillRoots(cwd: string, home: string): string[] {
  return [
    join(cwd, ".gemini", "skills"),
    join(cwd, ".agents", "skills"),
    join(home, ".gemini", "skills"),
    join(home, ".agents", "skills"),
  ];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** What in a Gemini CLI settings object keeps skills from the model; empty when nothing does. */
export function skillHidingSettings(settings: unknown): string[] {
  if (!isObject(settings)) return [];
  const found: string[] = [];
  const skills = isObject(settings.skills) ? settings.skills : {};
  const tools = isObject(settings.tools) ? settings.tools : {};
  if (skills.enabled === false) found.push("skills.enabled is false");
  if (Array.isArray(skills.disabled) && skills.disabled.length > 0)
    found.push(`skills.disabled lists ${skills.disabled.join(", ")}`);
  if (Array.isArray(tools.exclude) && tools.exclude.includes("activate_skill"))
    found.push("tools.exclude lists activate_skill");
  if (Array.isArray(tools.core) && !tools.core.includes("activate_skill"))
    found.push("tools.core leaves out activate_skill");
  return found;
}

/**
 * A warning when the user's own Gemini CLI settings hide skills: skillgym's runs use their own home and a policy that
 * offers `activate_skill`, so they trigger where the user's own headless sessions would not.
 */
export async function userSettingsWarning(home: string | undefined): Promise<string | undefined> {
  if (!home) return undefined;
  const file = join(home, ".gemini", "settings.json");
  // Missing or unreadable settings stay undefined, which hide nothing.
  let settings: unknown;
  try {
    settings = JSON.parse(await readFile(file, "utf8"));
  } catch {}
  const found = skillHidingSettings(settings);
  if (found.length === 0) return undefined;
  return (
    `${file}: ${found.join("; ")}: your own Gemini CLI sessions hide skills, while skillgym's runs ` +
    "(their own home, a policy allowing activate_skill) offer them"
  );
}
