import { startResidentDouble } from "./resident.js";

/** `npm test`'s global setup: one resident test double for the whole run, named to every test worker. */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.platform !== "linux") return async () => {};
  const resident = await startResidentDouble();
  process.env.SKILLGYM_TEST_AGENT_DOUBLE = resident.binary;
  return () => resident.close();
}
