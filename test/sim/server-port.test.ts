import { afterEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { type SimServer, startSim } from "../../src/sim/server.js";

const started: SimServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
});

describe("skillgym sim's port", () => {
  it("refuses a port another process holds as a usage error that names the port and suggests another", async () => {
    const first = await startSim({});
    started.push(first);
    const error = await startSim({ port: first.port }).then(
      (sim) => {
        started.push(sim);
        return undefined;
      },
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).code).toBe("USAGE");
    expect((error as SkillgymError).message).toBe(
      `port ${first.port} on 127.0.0.1 is taken by another process`,
    );
    expect((error as SkillgymError).hint).toBe("pass another --port, or leave it out to take any free one");
  });

  it("answers a request on the port it was given", async () => {
    const first = await startSim({});
    const port = first.port;
    await first.close();
    const sim = await startSim({ port });
    started.push(sim);
    expect(sim.port).toBe(port);
    expect(sim.url).toBe(`http://127.0.0.1:${port}`);
    const response = await fetch(`${sim.url}/`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ simulator: "skillgym sim" });
  });
});
