// The viewer's stylesheet, inlined into the page: the machine may be offline, so nothing is fetched.
export const viewerStyle = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--pass:#1a7f37;--pass-bg:#dafbe1;
--fail:#cf222e;--fail-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;--accent:#0969da;--with:#1a7f37;--without:#6e7781;--old:#8250df}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header.top{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem;
padding:.6rem 1.25rem;background:var(--soft);border-bottom:1px solid var(--line)}
.brand{font-weight:600;font-size:15px}.brand .skill{color:var(--accent);margin-left:.35rem}
.tabs{display:flex;gap:.25rem;margin-left:auto}
.tabs button{border:1px solid transparent;background:none;padding:.35rem .8rem;border-radius:6px;cursor:pointer;font:inherit;color:var(--muted)}
.tabs button[aria-selected="true"]{background:var(--bg);border-color:var(--line);color:var(--fg);font-weight:600}
.tabs button:focus-visible,button:focus-visible,select:focus-visible,textarea:focus-visible{outline:2px solid var(--accent);outline-offset:1px}
main{max-width:1280px;margin:0 auto;padding:1rem 1.25rem 4rem}
h2{font-size:18px;margin:.5rem 0 .75rem}h3{font-size:15px;margin:1.25rem 0 .5rem}
.banner{background:var(--warn-bg);border-bottom:1px solid #d4a72c;padding:.45rem 1.25rem;color:#4d2d00}
.problem{background:var(--fail-bg);border:1px solid #ff818266;border-radius:6px;padding:.5rem .75rem;color:#82071e;white-space:pre-wrap}
.muted{color:var(--muted)}.empty{color:var(--muted);font-style:italic}
button{font:inherit;cursor:pointer;border:1px solid var(--line);background:var(--bg);border-radius:6px;padding:.3rem .7rem}
button:hover:not(:disabled){background:var(--soft)}button:disabled{opacity:.45;cursor:default}
button.primary{background:var(--pass);border-color:var(--pass);color:#fff}button.primary:hover:not(:disabled){background:#116329}
select{font:inherit;padding:.25rem .4rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);max-width:28rem}
.runbar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;padding:.5rem 0 .75rem;border-bottom:1px solid var(--line);margin-bottom:.75rem}
.runbar .spacer{flex:1}.position{font-variant-numeric:tabular-nums;min-width:7.5rem;text-align:center}
.save-state{color:var(--muted);font-size:13px}.save-state.error{color:var(--fail)}
.run-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:.5rem .75rem}.run-head h2{margin:0}
.badge{display:inline-block;border-radius:999px;padding:0 .55rem;font-size:12px;font-weight:600;border:1px solid;white-space:nowrap}
.cfg-with_skill{color:var(--with);border-color:var(--with);background:var(--pass-bg)}
.cfg-without_skill{color:#424a53;border-color:var(--without);background:#eaeef2}
.cfg-old_skill{color:var(--old);border-color:var(--old);background:#fbefff}
.cfg-other{color:var(--accent);border-color:var(--accent);background:#ddf4ff}
.pass-badge{color:var(--pass);border-color:var(--pass);background:var(--pass-bg)}
.fail-badge{color:var(--fail);border-color:var(--fail);background:var(--fail-bg)}
.error-badge{color:var(--warn);border-color:#d4a72c;background:var(--warn-bg)}
.reused-badge{color:var(--accent);border-color:var(--accent);background:#ddf4ff}
.reused-note{font-size:13px;color:var(--muted);margin:.2rem 0}
.score{font-weight:600}.score.good{color:var(--pass)}.score.bad{color:var(--fail)}
pre{margin:0;padding:.6rem .75rem;background:var(--soft);border:1px solid var(--line);border-radius:6px;overflow:auto;
white-space:pre-wrap;word-break:break-word;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;max-height:36rem}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(380px,1fr));gap:1rem}
.file{border:1px solid var(--line);border-radius:8px;margin:.5rem 0;overflow:hidden}
.file-head{display:flex;gap:.6rem;align-items:center;padding:.35rem .7rem;background:var(--soft);border-bottom:1px solid var(--line);font-size:13px}
.file-name{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600;word-break:break-all}.file-head .spacer{flex:1}
.file-body{padding:.6rem .75rem}.file-body pre{border:none;padding:0;background:none;max-height:30rem}
.file-body img{max-width:100%;height:auto;display:block;background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}
.md h1,.md h2,.md h3,.md h4,.md h5,.md h6{margin:.6rem 0 .35rem;line-height:1.25}.md h1{font-size:20px}.md h2{font-size:17px}
.md h3{font-size:15px}.md p{margin:.4rem 0}.md ul,.md ol{margin:.3rem 0;padding-left:1.5rem}.md code{background:var(--soft);padding:0 .25rem;border-radius:4px;font-size:12.5px}
.md pre code{background:none;padding:0}.md blockquote{margin:.4rem 0;padding-left:.75rem;border-left:3px solid var(--line);color:var(--muted)}
.md table{border-collapse:collapse}.md td,.md th{border:1px solid var(--line);padding:.2rem .5rem}
.expectations{list-style:none;padding:0;margin:0}.expectations li{border:1px solid var(--line);border-radius:8px;padding:.5rem .7rem;margin:.4rem 0}
.expectations li.failed{border-color:#ff8182;background:#fff8f7}.exp-text{font-weight:500}
.evidence{margin:.3rem 0 0;padding:.25rem .6rem;border-left:3px solid var(--line);color:#424a53;white-space:pre-wrap;word-break:break-word;font-size:13px}
.source{font-size:12px;color:var(--muted);margin-left:.4rem}
textarea{width:100%;min-height:7rem;font:inherit;padding:.5rem;border:1px solid var(--line);border-radius:6px;resize:vertical}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;font-variant-numeric:tabular-nums}
table.data{border-collapse:collapse;width:100%;margin:.25rem 0 1rem;font-variant-numeric:tabular-nums}
table.data th,table.data td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
table.data th{background:var(--soft);font-weight:600;font-size:13px}table.data td.num,table.data th.num{text-align:right}
.cards{display:flex;flex-wrap:wrap;gap:.75rem;margin:.5rem 0 1rem}.card{border:1px solid var(--line);border-radius:8px;padding:.5rem .9rem;min-width:8.5rem}
.card .label{font-size:12px;color:var(--muted)}.card .value{font-size:20px;font-weight:600;font-variant-numeric:tabular-nums}
.delta-note{padding:.5rem .75rem;border-radius:6px;border:1px solid var(--line);background:var(--soft)}
.grid-cells{display:inline-flex;gap:2px;flex-wrap:wrap;max-width:22rem}.cell{width:12px;height:12px;border-radius:2px;display:inline-block}
.cell.p{background:#2da44e}.cell.f{background:#cf222e}.cell.n{background:#d0d7de}
details.eval-grid{border:1px solid var(--line);border-radius:8px;margin:.4rem 0;padding:.3rem .7rem}details.eval-grid summary{cursor:pointer;font-weight:600}
.rate{position:relative;width:9rem;height:.8rem;background:#eaeef2;border-radius:3px;display:inline-block;vertical-align:middle;margin-right:.4rem}
.rate .fill{position:absolute;left:0;top:0;bottom:0;border-radius:3px;background:var(--accent)}
tr.failed .rate .fill{background:var(--fail)}.rate .threshold{position:absolute;top:-3px;bottom:-3px;width:2px;background:var(--fg)}
.chart{max-width:760px;border:1px solid var(--line);border-radius:8px;padding:.5rem;margin:.5rem 0 1rem}
.legend{display:flex;gap:1rem;font-size:13px;margin-bottom:.25rem}.legend span::before{content:"";display:inline-block;width:.9rem;height:3px;margin-right:.3rem;vertical-align:middle;background:currentColor}
.previous-note{font-size:13px;color:var(--muted);margin:.2rem 0}
.nowrap{white-space:nowrap}table.over-time td{vertical-align:middle}
.fatal{margin:2rem auto;max-width:40rem}
section.tune{border-top:1px solid var(--line);margin-top:1rem}
.tune-chart{position:relative;display:flex;align-items:flex-end;gap:.6rem;width:fit-content;min-width:16rem;max-width:100%;overflow-x:auto;border:1px solid var(--line);border-radius:8px;padding:.5rem .75rem;margin:.75rem 0}
.tune-bar{display:flex;flex-direction:column;align-items:center;width:4rem}.tune-value{font-size:12px;font-weight:600;font-variant-numeric:tabular-nums}
.tune-track{position:relative;width:2rem;height:10rem;background:#eaeef2;border-radius:3px}
.tune-fill{position:absolute;left:0;right:0;bottom:0;background:var(--accent);border-radius:3px}.tune-fill.best{background:var(--pass)}
.tune-label{font-size:12px;color:var(--muted);height:1.4rem;white-space:nowrap}
.tune-threshold{position:absolute;left:.5rem;right:.5rem;border-top:2px dashed var(--warn)}
table.tune-table tr.best td{background:var(--pass-bg)}pre.final-report{margin-bottom:1rem}
.contradiction-badge{color:#4d2d00;border-color:#d4a72c;background:var(--warn-bg);white-space:normal}
.grade-mark{display:inline-flex;gap:4px;margin-left:8px}.grade-mark button{font-size:11px;padding:0 6px;border:1px solid var(--border,#ccc);border-radius:4px;background:transparent;cursor:pointer}.grade-mark button.marked{background:#ddf4ff;font-weight:600}.rewording{margin-top:4px;font-style:italic}
.expectations li.contradicted{border-color:#d4a72c;background:#fffdf0}
.transcript-bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .9rem;margin:.25rem 0 .5rem}
.transcript-note.truncated{color:var(--warn)}
details.transcript-step{border:1px solid var(--line);border-radius:8px;margin:.35rem 0;padding:.3rem .7rem}
details.transcript-step summary{cursor:pointer}
.step-title{font-weight:600}.step-digest{color:var(--muted);font-size:13px;margin-left:.75rem;word-break:break-word}
details.transcript-step pre{max-height:20rem}
@media (max-width:700px){.tabs{margin-left:0}}
.contaminated{color:var(--fail);font-weight:600}
.catalog-matrix td.heat{min-width:3rem;text-align:center;cursor:default}.catalog-matrix td.heat.right,.catalog-matrix td.heat.wrong{cursor:pointer;font-weight:600}
.catalog-matrix td.heat.wrong{color:#fff}
.catalog h3 .badge{margin-left:.5rem}.catalog-runs button{padding:0 .45rem;font-size:12px;margin-left:.5rem}
`;
