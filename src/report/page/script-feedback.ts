// Browser code: reviews typed in the Outputs tab. With a server they are saved (debounced) to feedback.json;
// in a static file they live in localStorage and leave as a downloaded feedback.json.
export const scriptFeedback = String.raw`
function createFeedback() {
  let iteration = null;
  let agent = null;
  let reviews = new Map();
  let status = null;
  const timers = new Map();
  const inFlight = new Set();
  let listener = function () {};

  function storageKey() {
    return "skillgym-feedback:" + STATIC.key + ":" + iteration + (agent ? "/" + agent : "");
  }

  function readLocal() {
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey()) || "null");
      if (!saved || typeof saved !== "object" || !Array.isArray(saved.reviews)) return;
      for (const r of saved.reviews) {
        if (r && typeof r.run_id === "string" && typeof r.feedback === "string") {
          const grades = Array.isArray(r.grades) ? r.grades : undefined;
          reviews.set(r.run_id, { feedback: r.feedback, timestamp: String(r.timestamp || ""), grades: grades });
        }
      }
      if (typeof saved.status === "string") status = saved.status;
    } catch (error) {
      listener("error", "Could not read the feedback kept in this browser");
    }
  }

  function writeLocal() {
    localStorage.setItem(storageKey(), JSON.stringify(asFile(status)));
  }

  function load(data) {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    iteration = data.number;
    agent = data.agent || null;
    reviews = new Map(Object.entries(data.feedback.reviews));
    status = data.feedback.status;
    if (STATIC) readLocal();
  }

  function asFile(fileStatus) {
    const list = [];
    for (const entry of reviews) {
      const grades = entry[1].grades || [];
      if (entry[1].feedback.trim() !== "" || grades.length) {
        const review = { run_id: entry[0], feedback: entry[1].feedback, timestamp: entry[1].timestamp };
        if (grades.length) review.grades = grades;
        list.push(review);
      }
    }
    return { reviews: list, status: fileStatus || "in_progress" };
  }

  async function post(body) {
    const response = await fetch("/api/feedback", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      keepalive: true,
    });
    if (!response.ok) {
      let message = response.status + " " + response.statusText;
      try {
        message = (await response.json()).error || message;
      } catch (error) {}
      throw new Error(message);
    }
  }

  // The static file has no server: reviews and marks stay in this browser's storage.
  function saveInBrowser() {
    try {
      writeLocal();
      listener("saved", "Saved in this browser");
    } catch (error) {
      listener("error", "Not saved: " + error.message);
    }
  }

  async function save(runId) {
    clearTimeout(timers.get(runId));
    timers.delete(runId);
    if (STATIC) return saveInBrowser();
    const review = reviews.get(runId);
    listener("pending", "Saving…");
    const request = post({ iteration: iteration, agent: agent || undefined, run_id: runId, feedback: review ? review.feedback : "" }).then(
      function () {
        if (timers.size === 0) listener("saved", "Saved at " + new Date().toLocaleTimeString());
      },
      function (error) {
        listener("error", "Not saved: " + error.message);
      },
    );
    inFlight.add(request);
    await request;
    inFlight.delete(request);
  }

  function set(runId, value) {
    const before = reviews.get(runId);
    reviews.set(runId, { feedback: value, timestamp: new Date().toISOString(), grades: before ? before.grades : undefined });
    clearTimeout(timers.get(runId));
    timers.set(runId, setTimeout(function () { save(runId); }, 500));
    listener("pending", "Unsaved changes…");
  }

  // A reviewer's word on one grade: "right", "wrong", or null to take it back. Saved at once.
  async function mark(runId, text, verdict) {
    const before = reviews.get(runId) || { feedback: "", timestamp: "" };
    const others = (before.grades || []).filter(function (g) { return g.text !== text; });
    const grades = verdict ? others.concat([{ text: text, verdict: verdict }]) : others;
    reviews.set(runId, { feedback: before.feedback, timestamp: new Date().toISOString(), grades: grades });
    if (STATIC) return saveInBrowser();
    listener("pending", "Saving…");
    try {
      await post({ iteration: iteration, agent: agent || undefined, run_id: runId, grade: { text: text, verdict: verdict } });
      listener("saved", "Grade marked at " + new Date().toLocaleTimeString());
    } catch (error) {
      listener("error", "Not saved: " + error.message);
    }
  }

  function markOf(runId, text) {
    const review = reviews.get(runId);
    const found = review && review.grades ? review.grades.find(function (g) { return g.text === text; }) : null;
    return found ? found.verdict : null;
  }

  async function flush() {
    const waiting = Array.from(timers.keys()).map(save);
    await Promise.all(waiting.concat(Array.from(inFlight)));
  }

  function download() {
    const blob = new Blob([JSON.stringify(asFile("complete"), null, 2) + "\n"], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = h("a", { href: url, download: "feedback.json" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 5000);
  }

  async function submitAll() {
    await flush();
    if (STATIC) {
      status = "complete";
      writeLocal();
      download();
      listener("saved", "feedback.json downloaded: put it in " + state.iteration.name + "/");
      return;
    }
    try {
      await post({ iteration: iteration, agent: agent || undefined, status: "complete" });
      status = "complete";
      const count = asFile(status).reviews.length;
      listener("saved", "Submitted " + count + (count === 1 ? " review: " : " reviews: ") + state.iteration.name + "/feedback.json is complete");
    } catch (error) {
      listener("error", "Not submitted: " + error.message);
    }
  }

  return {
    load: load,
    text: function (runId) {
      const review = reviews.get(runId);
      return review ? review.feedback : "";
    },
    set: set,
    mark: mark,
    markOf: markOf,
    flush: flush,
    submitAll: submitAll,
    onChange: function (fn) { listener = fn; },
  };
}

const feedback = createFeedback();
`;
