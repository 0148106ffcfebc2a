/// The query console's style sheet, inlined into ``ConsoleDocument``'s page (its hash is in the
/// page's Content-Security-Policy, so no other style applies).
///
/// ```swift
/// let css = ConsoleStyle.css   // ":root { --ink: ..."
/// ```
enum ConsoleStyle {
    /// The CSS text, exactly as it goes between `<style>` and `</style>`.
    static let css = #"""

:root {
  --ink: #1d2330; --muted: #6b7280; --line: #d9dde5; --panel: #ffffff; --back: #f3f5f8;
  --accent: #2563eb; --accent-soft: #e8efff; --bad: #c62828; --good: #1b7f3b;
  --mono: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 14px/1.45 system-ui, "DejaVu Sans", "Liberation Sans", sans-serif; color: var(--ink); background: var(--back);
  display: flex; flex-direction: column; }
header { display: flex; align-items: center; gap: 14px; padding: 8px 16px; background: #1d2330; color: #fff; flex-wrap: wrap; }
header h1 { font-size: 16px; margin: 0 10px 0 0; font-weight: 600; letter-spacing: .2px; }
header label { font-size: 12px; color: #c9d1e0; display: flex; align-items: center; gap: 6px; }
header input, header select { font: 12px var(--mono); padding: 3px 6px; border-radius: 4px; border: 1px solid #475069;
  background: #2a3142; color: #fff; }
header input#container { width: 230px; }
header .spacer { flex: 1; }
header .rules { font-size: 12px; color: #c9d1e0; }
.hidden { display: none !important; }
main { flex: 1; display: flex; min-height: 0; }
nav { width: 200px; flex: none; background: var(--panel); border-right: 1px solid var(--line); overflow-y: auto; padding: 10px 0; }
nav h2, section h2 { font-size: 11px; text-transform: uppercase; letter-spacing: .8px; color: var(--muted); margin: 0 14px 8px; font-weight: 600; }
nav button { display: flex; width: 100%; justify-content: space-between; border: 0; background: none; padding: 6px 14px;
  font: inherit; color: inherit; cursor: pointer; text-align: left; }
nav button:hover { background: var(--back); }
nav button.selected { background: var(--accent-soft); color: var(--accent); font-weight: 600; }
nav button .count { color: var(--muted); font-size: 12px; font-weight: 400; }
nav .empty { margin: 0 14px; color: var(--muted); font-size: 13px; }
#workspace { flex: 1; display: flex; flex-direction: column; min-width: 0; padding: 12px 16px; gap: 10px; overflow: hidden; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.query-head { display: flex; align-items: baseline; gap: 10px; margin-bottom: 6px; }
.query-head h2 { margin: 0; }
.query-head .hint { color: var(--muted); font-size: 12px; }
.editor { position: relative; font: 14px/1.5 var(--mono); border: 1px solid var(--line); border-radius: 6px; background: #fbfcfe; }
.editor:focus-within { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent-soft); }
.editor pre, .editor textarea { margin: 0; padding: 8px 10px; font: inherit; letter-spacing: 0; white-space: pre-wrap;
  overflow-wrap: anywhere; min-height: 40px; tab-size: 4; }
.editor pre { pointer-events: none; color: var(--ink); }
.editor textarea { position: absolute; inset: 0; width: 100%; height: 100%; resize: none; border: 0; background: transparent;
  color: transparent; caret-color: var(--ink); outline: none; overflow: hidden; }
.editor textarea::placeholder { color: #9aa3b2; }
.tok-keyword { color: #7c3aed; font-weight: 600; }
.tok-operator { color: #b45309; }
.tok-string { color: #15803d; }
.tok-number { color: #0369a1; }
.tok-literal { color: #be185d; font-weight: 600; }
.tok-key { color: #1d2330; }
.tok-aggregate { color: #0f766e; }
.tok-variable { color: #c2410c; font-style: italic; }
.tok-argument { color: #c2410c; font-weight: 600; }
.tok-option { color: #9333ea; }
.tok-punct { color: #6b7280; }
.tok-unknown { color: var(--bad); }
.tok-error-mark { text-decoration: underline wavy var(--bad); text-decoration-skip-ink: none; background: #fde8e8; }
#check { margin-top: 6px; font-size: 13px; min-height: 20px; }
#check.valid { color: var(--good); }
#check.valid code { font-family: var(--mono); color: var(--ink); }
#check.invalid { color: var(--bad); }
#check pre { margin: 4px 0 0; font: 13px/1.35 var(--mono); color: var(--ink); background: #fff5f5; border: 1px solid #f5c2c2;
  border-radius: 4px; padding: 4px 8px; overflow-x: auto; }
.controls { display: flex; align-items: center; gap: 8px; margin-top: 8px; flex-wrap: wrap; }
.controls .label { color: var(--muted); font-size: 12px; }
#sorts { display: inline-flex; gap: 6px; flex-wrap: wrap; }
.sort { display: inline-flex; align-items: center; border: 1px solid var(--line); border-radius: 6px; background: #fbfcfe; }
.sort select { border: 0; background: transparent; font: 13px var(--mono); padding: 3px 4px; max-width: 170px; }
.sort button { border: 0; background: none; cursor: pointer; padding: 3px 6px; font: 13px inherit; color: var(--muted); }
.sort button.sort-direction { color: var(--accent); font-weight: 600; }
button.plain, select.plain { border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 4px 10px; font: inherit; font-size: 13px; cursor: pointer; }
button.primary { border: 0; background: var(--accent); color: #fff; border-radius: 6px; padding: 5px 16px; font: inherit; font-weight: 600; cursor: pointer; }
button:disabled { opacity: .45; cursor: default; }
.controls .spacer { flex: 1; }
#request-error { border-color: #f5c2c2; background: #fff5f5; color: var(--bad); font-size: 13px; }
#request-error b { font-family: var(--mono); }
.tabs { display: flex; gap: 2px; border-bottom: 1px solid var(--line); }
.tabs button { border: 0; background: none; padding: 7px 14px; font: inherit; color: var(--muted); cursor: pointer; border-bottom: 2px solid transparent; margin-bottom: -1px; }
.tabs button.selected { color: var(--accent); border-bottom-color: var(--accent); font-weight: 600; }
.tabs .summary { margin-left: auto; align-self: center; color: var(--muted); font-size: 12px; }
.panel { flex: 1; min-height: 0; overflow: auto; }
table { border-collapse: collapse; width: 100%; font-size: 13px; background: var(--panel); }
th, td { text-align: left; padding: 5px 10px; border-bottom: 1px solid #eceff4; white-space: nowrap; max-width: 240px;
  overflow: hidden; text-overflow: ellipsis; }
th { position: sticky; top: 0; background: #f8f9fb; font-weight: 600; font-size: 12px; color: #3f4756; z-index: 1; }
th .type { color: var(--muted); font-weight: 400; font-family: var(--mono); font-size: 10px; margin-left: 4px; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td.row-number { color: var(--muted); text-align: right; width: 1%; }
td.record-name { font-family: var(--mono); font-size: 12px; color: #3f4756; }
td.null { color: #b0b6c2; }
tbody tr:hover { background: #f7f9ff; }
.pager { display: flex; align-items: center; gap: 10px; padding: 8px 0 0; }
#page-info { color: var(--muted); font-size: 13px; }
.empty-state { color: var(--muted); padding: 24px; text-align: center; }
#plan-view { padding: 12px 2px; }
#plan-view h3, #schema-view h3 { font-size: 13px; margin: 10px 0 6px; }
.index-name { display: inline-block; font: 12px var(--mono); background: #e7f6ec; color: #14532d; border: 1px solid #b7e2c4;
  border-radius: 4px; padding: 2px 8px; margin: 0 6px 4px 0; }
.no-index { display: inline-block; font-size: 12px; background: #fff4e5; color: #8a4b00; border: 1px solid #f3d19c; border-radius: 4px; padding: 2px 8px; }
#plan-view pre { font: 12px/1.5 var(--mono); background: #f8f9fb; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
  white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
#schema-view { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 12px; padding: 12px 2px; align-content: start; }
#schema-view .card h3 { margin-top: 0; display: flex; justify-content: space-between; }
#schema-view td { font-family: var(--mono); font-size: 12px; }
.flag { display: inline-block; font: 11px system-ui, sans-serif; border-radius: 3px; padding: 0 5px; margin-right: 3px; background: #eef1f6; color: #3f4756; }
#map-view { padding: 10px 2px; display: flex; flex-direction: column; gap: 6px; height: 100%; }
#map-caption { color: var(--muted); font-size: 12px; }
#map-svg { flex: 1; min-height: 0; width: 100%; background: #eef4fb; border: 1px solid var(--line); border-radius: 8px; }
#map-svg .graticule { stroke: #c8d6e8; stroke-width: 1; vector-effect: non-scaling-stroke; fill: none; }
#map-svg .graticule-label { fill: #7b8aa3; font: 11px var(--mono); }
#map-svg .point { fill: #2563eb; fill-opacity: .8; stroke: #fff; stroke-width: 1.5; }
#map-svg .point:hover { fill: #c62828; }
#map-svg .point-label { fill: #1d2330; font: 11px system-ui, sans-serif; paint-order: stroke; stroke: #eef4fb; stroke-width: 3px; }

"""#
}
