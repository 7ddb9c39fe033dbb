import { cp, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { dirname, join, resolve } from "node:path";

/** The hostile skill: its script tries to read, list, write and connect outside its run. */
export const HOSTILE_SKILL = resolve(import.meta.dirname, "fixtures", "hostile");

export const ATTEMPTS = [
  "read-canary",
  "list-other-workspace",
  "write-outside",
  "exfiltrate-loopback",
  "reach-example.com",
] as const;

/** What the hostile script may not reach: a canary in a stand-in for the user's home, another run, a file outside. */
export interface Targets {
  canaryFile: string;
  canaryText: string;
  otherWorkspace: string;
  outsideFile: string;
  exfiltration: { port: number; received(): string; connections(): number; close(): Promise<void> };
}

/** Lays the targets out under `dir` (a test's temp folder) and starts the exfiltration server on loopback. */
export async function layOutTargets(dir: string): Promise<Targets> {
  const canaryText = `canary-${Math.random().toString(36).slice(2)}-secret`;
  const userHome = join(dir, "user-home");
  await mkdir(userHome, { recursive: true });
  await writeFile(join(userHome, "canary.txt"), canaryText);
  const otherWorkspace = join(dir, "other-run", "work");
  await mkdir(otherWorkspace, { recursive: true });
  await writeFile(join(otherWorkspace, "notes.md"), "another run's file\n");
  await mkdir(join(dir, "outside"), { recursive: true });
  let received = "";
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.on("data", (chunk) => {
      received += chunk.toString();
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    canaryFile: join(userHome, "canary.txt"),
    canaryText,
    otherWorkspace,
    outsideFile: join(dir, "outside", "written.txt"),
    exfiltration: {
      port,
      received: () => received,
      connections: () => connections,
      close: () => new Promise<void>((done) => server.close(() => done())),
    },
  };
}

/** The shell line a sim `bash` step runs: the staged script, given every target. */
export function attemptCommand(skillsFolder: string, targets: Targets): string {
  const args = [
    targets.canaryFile,
    targets.otherWorkspace,
    targets.outsideFile,
    String(targets.exfiltration.port),
  ];
  return `bash ${skillsFolder}/hostile/scripts/attempt.sh ${args.join(" ")}`;
}

/** A sim script whose every run runs the hostile script, then answers. */
export function hostileSimScript(skillsFolder: string, targets: Targets) {
  const step = [{ bash: attemptCommand(skillsFolder, targets) }, { text: "Tidied." }];
  return { rules: [{ skill: "none", without_skill: step, steps: step }] };
}

/** A sim script whose every run dumps its environment into the workspace and its transcript, then answers. */
export function envDumpSimScript(skillsFolder: string) {
  const step = [{ bash: `bash ${skillsFolder}/hostile/scripts/dump-env.sh` }, { text: "Tidied." }];
  return { rules: [{ skill: "none", without_skill: step, steps: step }] };
}

/** The code the skill plants for the suite's checks to run, and the ordinary checks that run it. */
export const PLANTED = ["json.py", "out.py", "npm-test", "fsmonitor"] as const;
export const PLANTED_CHECKS = [
  { type: "command", run: `python3 -c "import json; print(json.dumps(1))"` },
  { type: "command", run: "python3 out.py" },
  { type: "command", run: "npm test" },
  { type: "command", run: "git status" },
];

/** A sim script whose every run plants the code (plant.sh), then answers. */
export function plantingSimScript(skillsFolder: string, targets: Targets) {
  const plant = `bash ${skillsFolder}/hostile/scripts/plant.sh ${targets.canaryFile} ${dirname(targets.outsideFile)}`;
  const step = [{ bash: plant }, { text: "Tidied." }];
  return { rules: [{ skill: "none", without_skill: step, steps: step }] };
}

export async function stageHostileSkill(workspace: string, skillsFolder: string): Promise<void> {
  await cp(HOSTILE_SKILL, join(workspace, skillsFolder, "hostile"), { recursive: true });
}

/** attempts.txt as a map: attempt → "ok" | "failed". */
export async function readAttempts(workspace: string): Promise<Record<string, string>> {
  const text = await readFile(join(workspace, "attempts.txt"), "utf8");
  return Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((line) => line.split(": ") as [string, string]),
  );
}

/** Every file under `dir` whose text holds `needle`. */
export async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && (await readFile(path, "latin1")).includes(needle)) found.push(path);
    }
  };
  await walk(dir);
  return found;
}

export const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
