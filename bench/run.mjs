// `npm run bench`: speed as ratios against the ideal. Needs the build (npm run bench builds first).
import { cpus } from "node:os";
import { evalThroughput } from "./eval-throughput.mjs";

const log = (line) => process.stdout.write(`${line}\n`);
log(`# skillgym benchmark — ${new Date().toISOString()} — ${cpus().length} cores, Node ${process.version}`);
await evalThroughput(log);
