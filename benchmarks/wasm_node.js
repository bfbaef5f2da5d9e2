// Run the WebAssembly search (tmphys/web/static/search.js and search.wasm) in Node on a list of problems: the
// tests hold it to the native engine with it (tests/test_wasm.py) and benchmarks/wasm_vs_native.py times it.
//
//   node benchmarks/wasm_node.js < request.json > results.json
//
// request: {"web": folder of search.js and search.wasm, "library": the 48 criteria cards ([{criteria: [{mask}]}]),
//           "jobs": [{"id", "mode", "cards", "steps"?, "seconds"?, "objectives"?, "tree"?, "objective"?}]}
// results: one JSON object per job and line: {"id", "classes", "optimal": {objective: entry}, "ms": {objective: ms},
//          "cpu": {objective: ms of CPU time}, "tree"?}, each entry as `tmphys solve --json` writes it. With
//          "repeat": n in the request, every job runs n times in the one process, each reported.
"use strict";
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

const request = JSON.parse(fs.readFileSync(0, "utf8"));
// search.js is an ES module (tmphys/web/modules.py): imported, not required.
import(pathToFileURL(path.resolve(request.web, "search.js")).href).then((S) => {
const core = new S.Core(fs.readFileSync(path.resolve(request.web, "search.wasm")), { now: () => performance.now() });
core.setLibrary(request.library);
for (let round = 0; round < (request.repeat || 1); round++) for (const job of request.jobs) {
  const setup = core.setup({ mode: job.mode, cards: job.cards });
  const out = { id: job.id, round, classes: setup.K, optimal: {}, ms: {}, cpu: {} };
  for (const objective of job.objectives || ["expected", "worst"]) {
    const start = performance.now(), cpu = process.cpuUsage();
    const solver = new S.Solver(setup, objective);
    solver.limit({ seconds: job.seconds ?? null, steps: job.steps ?? null });
    out.optimal[objective] = solver.optimalValue();
    out.ms[objective] = performance.now() - start;
    const used = process.cpuUsage(cpu);
    out.cpu[objective] = (used.user + used.system) / 1000;
    if (job.tree && objective === (job.objective || "expected")) {
      solver.limit({ seconds: job.seconds ?? null, steps: job.steps ?? null });
      out.tree = solver.strategy();
    }
    solver.free();
  }
  setup.free();
  process.stdout.write(JSON.stringify(out) + "\n");
}
});
