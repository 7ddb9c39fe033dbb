import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { listenError, type SimServer, startSim } from "../../src/sim/server.js";

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

  it("listens on 127.0.0.1 only: another address of the machine is refused", async () => {
    const sim = await startSim({});
    started.push(sim);
    const reached = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: "127.0.0.2", port: sim.port });
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    expect(reached).toBe(false);
  });

  it("refuses a privileged port as a usage error, and passes any other failure on as it is", () => {
    const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
    const refused = listenError(failure("EACCES"), 80);
    expect(refused).toBeInstanceOf(SkillgymError);
    expect(refused).toMatchObject({
      code: "USAGE",
      message: "port 80 on 127.0.0.1 needs privileges this process lacks",
      hint: "pass another --port, or leave it out to take any free one",
    });
    const other = failure("EADDRNOTAVAIL");
    expect(listenError(other, 80)).toBe(other);
  });
});
