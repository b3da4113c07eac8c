/** The reference page's stylesheet (served from /docs/assets/, no external fonts or images). */
export const DOCS_STYLE = String.raw`
:root {
  --bg: #f7f8fa; --panel: #ffffff; --text: #1c2330; --muted: #5d6778; --line: #dde2ea;
  --accent: #2456c7; --accent-text: #ffffff; --code-bg: #eef1f6; --danger: #b42318; --ok: #067647;
  --read: #e6f4ea; --read-text: #0b6b33; --write: #fff4e0; --write-text: #8a4b00; --destructive: #fde8e7; --destructive-text: #a3251c;
  --idem: #eaf0fd; --idem-text: #23449b;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #12151b; --panel: #1a1f27; --text: #e3e7ee; --muted: #9aa4b5; --line: #2c3340;
    --accent: #6d9bff; --accent-text: #0b1020; --code-bg: #242b36; --danger: #ff8a80; --ok: #6fd39a;
    --read: #17352a; --read-text: #8fe0b0; --write: #3a2c12; --write-text: #f3c27a; --destructive: #411b1b; --destructive-text: #ffaaa3;
    --idem: #1d2a4a; --idem-text: #a9c1ff;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { margin: 0; padding: 0; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
/* A word longer than its line breaks instead of widening the page (min-content sizes are left alone, so a
   wide table still scrolls in its own box). */
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; background: var(--bg); color: var(--text); overflow-wrap: break-word; }
a { color: var(--accent); }
code, pre, textarea { font-family: var(--mono); font-size: 13px; }
code { background: var(--code-bg); padding: 1px 5px; border-radius: 4px; }
pre { background: var(--code-bg); padding: 12px; border-radius: 6px; overflow: auto; margin: 8px 0; max-width: 100%; overflow-wrap: normal; }
pre code { background: none; padding: 0; }
p code, li code { overflow-wrap: anywhere; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.muted { color: var(--muted); }
.error { color: var(--danger); }

.top { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 4px 16px; padding: 12px 24px; background: var(--panel); border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 2; }
.top h1 { font-size: 18px; margin: 0; display: inline; }
.top .brand span { margin-left: 10px; font-size: 13px; }
.top nav a { margin-left: 16px; font-size: 14px; text-decoration: none; }
.top nav a:hover { text-decoration: underline; }

.layout { display: grid; grid-template-columns: 320px minmax(0, 1fr); min-height: calc(100vh - 50px); }
.sidebar { border-right: 1px solid var(--line); background: var(--panel); padding: 16px; position: sticky; top: 50px; height: calc(100vh - 50px); overflow-y: auto; min-width: 0; }
main { padding: 24px 32px 64px; max-width: 1040px; outline: none; min-width: 0; }
/* One column on a phone (tool-page.ts scrolls to the tool at the same width). The column is minmax(0, 1fr):
   a plain 1fr would grow to the widest table or code block and widen the whole page. The tool list scrolls
   in its own box, so the tool stays near the top. */
@media (max-width: 800px) {
  .top { position: static; padding: 10px 16px; }
  .top nav a { margin: 0 16px 0 0; }
  .layout { grid-template-columns: minmax(0, 1fr); min-height: 0; }
  .sidebar { position: static; height: auto; border-right: 0; border-bottom: 1px solid var(--line); padding: 12px 16px; }
  #tool-list { max-height: 40vh; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; padding: 0 8px 8px; }
  main { padding: 16px 16px 48px; }
  article h2 { font-size: 20px; }
  article h2 code { font-size: 18px; }
  .try { padding: 12px; }
  .markdown { padding: 8px 10px; }
}

.signin { border: 1px solid var(--line); border-radius: 8px; padding: 12px; margin-bottom: 16px; background: var(--bg); }
.signin h2 { font-size: 14px; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.signin label { display: block; font-size: 13px; margin-bottom: 4px; }
.signin form { display: flex; flex-wrap: wrap; gap: 8px; }
.signin form label { flex-basis: 100%; margin: 0; }
.signin input { flex: 1; min-width: 0; }
.signin p { margin: 0 0 8px; font-size: 13px; }
.signin .ok { color: var(--ok); font-weight: 600; }

input[type=password], input[type=text], input[type=search], textarea {
  font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px;
}
textarea { width: 100%; font-family: var(--mono); font-size: 13px; resize: vertical; }
input:focus-visible, textarea:focus-visible, button:focus-visible, a:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
button { font: inherit; font-size: 14px; border-radius: 6px; border: 1px solid var(--line); background: var(--panel); color: var(--text); padding: 6px 12px; cursor: pointer; }
button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); font-weight: 600; }
button:disabled { opacity: .5; cursor: not-allowed; }
button.link { border: 0; background: none; padding: 0; color: var(--accent); font-size: 13px; text-decoration: underline; }

#filter { width: 100%; margin-bottom: 12px; }
#tool-list h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 16px 0 4px; }
#tool-list ul { list-style: none; margin: 0; padding: 0; }
#tool-list a { display: block; padding: 5px 8px; border-radius: 6px; text-decoration: none; color: var(--text); }
#tool-list a:hover { background: var(--bg); }
#tool-list a[aria-current="page"] { background: var(--idem); }
#tool-list .tool-name { font-family: var(--mono); font-size: 13px; display: flex; justify-content: space-between; gap: 6px; }
#tool-list .tool-title { display: block; font-size: 12px; color: var(--muted); }
#tool-list .locked .tool-name::after { content: "no permission"; font-family: system-ui, sans-serif; font-size: 11px; color: var(--muted); }

.badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 999px; margin-right: 6px; }
.badge.read { background: var(--read); color: var(--read-text); }
.badge.write { background: var(--write); color: var(--write-text); }
.badge.destructive { background: var(--destructive); color: var(--destructive-text); }
.badge.idempotent { background: var(--idem); color: var(--idem-text); }
.badge.permission { background: var(--code-bg); color: var(--muted); font-weight: 500; font-family: var(--mono); }

article h2 { margin: 4px 0 6px; font-size: 24px; }
article h2 code { font-size: 22px; background: none; padding: 0; overflow-wrap: anywhere; }
article h3 { margin: 28px 0 8px; font-size: 17px; }
.group-label { text-transform: uppercase; font-size: 12px; letter-spacing: .06em; color: var(--muted); margin: 0; }
.tool-subtitle { color: var(--muted); margin: 0 0 10px; font-size: 16px; }
.endpoint { font-family: var(--mono); font-size: 14px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; display: inline-block; margin: 10px 0; max-width: 100%; overflow-wrap: anywhere; }
.endpoint .method { color: var(--ok); font-weight: 700; margin-right: 8px; }
.description { max-width: 80ch; }

table { border-collapse: collapse; width: 100%; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 7px 10px; border-bottom: 1px solid var(--line); }
th { background: var(--bg); font-size: 13px; }
td.param { font-family: var(--mono); font-size: 13px; width: 32%; overflow-wrap: anywhere; }
td.type { width: 14%; white-space: nowrap; }
td.param .req { color: var(--danger); font-family: system-ui, sans-serif; font-size: 11px; margin-left: 6px; display: inline-block; white-space: nowrap; }
td .constraints { display: block; color: var(--muted); font-size: 13px; margin-top: 2px; }
.table-wrap { overflow-x: auto; max-width: 100%; }

details { margin: 12px 0; }
summary { cursor: pointer; color: var(--muted); font-size: 14px; }

.try { margin-top: 28px; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 16px; }
.try h3 { margin-top: 0; }
.try label[for=request-body] { font-weight: 600; font-size: 14px; display: block; margin-bottom: 4px; }
.try .hint { font-size: 13px; color: var(--muted); margin: 4px 0 12px; }
.try .hint button { margin-left: 8px; }
.try-row { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; }
.try-row label { font-size: 14px; }
#try-reason { font-size: 13px; color: var(--muted); }

#answer { margin-top: 18px; border-top: 1px solid var(--line); padding-top: 12px; }
#answer h4 { margin: 0 0 6px; font-size: 15px; }
.answer-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 8px; align-items: center; }
#answer-status { font-family: var(--mono); font-size: 13px; margin: 0; overflow-wrap: anywhere; }
#answer-status.ok { color: var(--ok); }
#answer-status.fail { color: var(--danger); }
.answer-body { margin-top: 8px; }
/* An answer: long lines wrap; a wide table or code block scrolls inside its own box, not the page (and
   anything else too wide scrolls inside the answer). */
.markdown { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 12px 16px; min-width: 0; overflow-x: auto; }
.markdown h3, .markdown h4, .markdown h5, .markdown h6 { margin: 8px 0; font-size: 16px; }
.markdown p { margin: 8px 0; }
.markdown ul, .markdown ol { margin: 6px 0; padding-left: 22px; }
.markdown li + li { margin-top: 4px; }
.markdown hr { border: 0; border-top: 1px solid var(--line); margin: 12px 0; }
.markdown .table-wrap { margin: 8px 0; }
.markdown table { margin: 0; width: auto; min-width: 50%; }
.markdown th.align-center, .markdown td.align-center { text-align: center; }
.markdown th.align-right, .markdown td.align-right { text-align: right; }
.markdown pre.plain { white-space: pre-wrap; overflow-wrap: anywhere; }
#answer-raw { max-height: 60vh; }
.error-box { border: 1px solid var(--danger); border-radius: 6px; padding: 10px 14px; }
.error-box .code { font-family: var(--mono); font-weight: 700; color: var(--danger); }

.overview table { margin-top: 8px; }
.overview td:first-child { font-family: var(--mono); }
`;
