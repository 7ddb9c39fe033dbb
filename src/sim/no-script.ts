// Said wherever simulated results show when the suite has no sim script, so nobody reads meaning into the figures.
export const noSimScriptNotice =
  "NO SIM SCRIPT: --simulate found no sim-script.json beside the evals, so every run only loaded the skill and " +
  'answered "Done" without writing a file; these pass rates mean nothing. Write one (see `skillgym sim --help` ' +
  "and examples/*/evals/sim-script.json) or pass --sim-script <file>.";
