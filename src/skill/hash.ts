import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { listSkillFiles, readSkillFile } from "./files.js";

// Each file contributes its path, its byte length and its bytes, so no two different folders hash alike.
export async function hashSkill(dir: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of await listSkillFiles(resolve(dir))) {
    const bytes = await readSkillFile(file);
    hash.update(`${file.path}\0${bytes.length}\0`, "utf8");
    hash.update(bytes);
  }
  return hash.digest("hex");
}
