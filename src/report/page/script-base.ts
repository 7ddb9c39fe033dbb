// Browser code (plain ES2020, no backticks, no template holes): DOM helpers, formatting and the data source.
// Every value from a run reaches the DOM as a text node or an attribute set one by one, never as HTML.
export const scriptBase = `
const dataElement = document.getElementById("skillgym-data");
const STATIC = dataElement ? JSON.parse(dataElement.textContent) : null;

function h(tag, props, children) {
  const el = document.createElement(tag);
  if (props) {
    for (const key of Object.keys(props)) {
      const value = props[key];
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "text") el.textContent = String(value);
      else if (key.slice(0, 2) === "on") el.addEventListener(key.slice(2), value);
      else el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  if (children === undefined || children === null || children === false) return;
  if (Array.isArray(children)) {
    for (const child of children) append(el, child);
    return;
  }
  el.append(children instanceof Node ? children : String(children));
}

function own(object, key) {
  if (!object || !Object.prototype.hasOwnProperty.call(object, key)) return undefined;
  return object[key];
}

function pct(x) {
  return typeof x === "number" && isFinite(x) ? Math.round(x * 100) + "%" : "—";
}
function fixed(x, digits) {
  return typeof x === "number" && isFinite(x) ? x.toFixed(digits) : "—";
}
function signed(x) {
  return typeof x === "number" && isFinite(x) ? (x >= 0 ? "+" : "") + x.toFixed(2) : "—";
}
function thousands(x) {
  return typeof x === "number" && isFinite(x) ? Math.round(x).toLocaleString("en-US") : "—";
}
function sizeText(n) {
  if (n < 1024) return n + " B";
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " KB";
  return (n / 1024 / 1024).toFixed(1) + " MB";
}
function meanSd(stat, format) {
  return stat ? format(stat.mean) + " ± " + format(stat.stddev) : "—";
}
function ciText(d) {
  if (!d) return "—";
  const level = Math.round((d.confidence || 0.95) * 100);
  return signed(d.estimate) + " (" + level + "% CI " + signed(d.ci_low) + " to " + signed(d.ci_high) + ")";
}

function configurationBadge(name) {
  const known = name === "with_skill" || name === "without_skill" || name === "old_skill";
  return h("span", { class: "badge " + (known ? "cfg-" + name : "cfg-other"), text: name });
}

function verdictBadge(pass) {
  if (pass === null || pass === undefined) return h("span", { class: "badge error-badge", text: "ERROR" });
  return h("span", { class: "badge " + (pass ? "pass-badge" : "fail-badge"), text: pass ? "PASS" : "FAIL" });
}

function empty(text) {
  return h("p", { class: "empty", text: text });
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch (error) {
    body = null;
  }
  if (!response.ok) throw new Error((body && body.error) || response.status + " " + response.statusText);
  return body;
}

function fromFile(object, key) {
  const value = own(object, key);
  if (value === undefined) return Promise.reject(new Error("this file does not hold " + key));
  return Promise.resolve(value);
}

const source = STATIC
  ? {
      workspace: function () { return Promise.resolve(STATIC.workspace); },
      iteration: function (n, agent) { return fromFile(STATIC.iterations, agent ? n + "/" + agent : String(n)); },
      run: function (n, id, agent) { return fromFile(STATIC.runs, (agent ? n + "/" + agent : n) + ":" + id); },
      tunes: function () { return fromFile(STATIC, "tunes"); },
      catalogs: function () { return Promise.resolve(own(STATIC, "catalogs") || { catalogs: [] }); },
    }
  : {
      workspace: function () { return getJson("/api/workspace"); },
      tunes: function () { return getJson("/api/tunes"); },
      catalogs: function () { return getJson("/api/catalogs"); },
      iteration: function (n, agent) {
        return getJson("/api/iteration/" + encodeURIComponent(n) + (agent ? "?agent=" + encodeURIComponent(agent) : ""));
      },
      run: function (n, id, agent) {
        return getJson(
          "/api/run?iteration=" + encodeURIComponent(n) + "&run=" + encodeURIComponent(id) +
            (agent ? "&agent=" + encodeURIComponent(agent) : ""),
        );
      },
    };
`;
