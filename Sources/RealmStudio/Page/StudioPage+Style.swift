extension StudioPage {
  /// `app.css`: a plain, quiet design with light and dark schemes, visible focus, and sizes the
  /// virtual table relies on (rows of `--row` pixels).
  static let style = #"""
    :root {
      --bg: #f7f7f9; --panel: #ffffff; --text: #1d1f27; --muted: #646a7a; --line: #dfe1e8; --soft: #eef0f5;
      --accent: #39477f; --accent-text: #ffffff; --link: #2f5bd3; --error: #b3261e; --error-bg: #fdecea;
      --ok: #1b6e3c; --warn-bg: #fff6e0; --warn: #7a5200; --sel: #e6ebfb; --row: 30px;
      --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
      --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      color-scheme: light dark;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #15171c; --panel: #1d2027; --text: #e6e8ee; --muted: #9aa0ae; --line: #323643; --soft: #262a33;
        --accent: #8ea2f0; --accent-text: #10131a; --link: #9db4ff; --error: #ffb4ab; --error-bg: #3b1d1b;
        --ok: #7fd49b; --warn-bg: #3a2f12; --warn: #f2cf7a; --sel: #2b3350;
      }
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    html, body { height: 100%; margin: 0; }
    body { background: var(--bg); color: var(--text); font: 14px/1.45 var(--sans); display: flex; flex-direction: column; }
    a { color: var(--link); }
    button, input, select, textarea { font: inherit; color: inherit; }
    :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; top: 0; background: var(--panel); padding: 6px 10px; z-index: 10; }
    .skip:focus { left: 8px; }
    .muted { color: var(--muted); }
    .mono { font-family: var(--mono); font-size: 13px; }
    code, pre, kbd { font-family: var(--mono); font-size: 13px; }

    .top { display: flex; align-items: center; gap: 16px; padding: 8px 16px; background: var(--panel); border-bottom: 1px solid var(--line); }
    .brand { display: flex; align-items: center; gap: 8px; font-size: 15px; white-space: nowrap; }
    .files { display: flex; gap: 4px; overflow-x: auto; flex: 1; }
    .files a { padding: 4px 10px; border-radius: 6px; text-decoration: none; color: var(--text); white-space: nowrap; }
    .files a[aria-current="page"] { background: var(--soft); font-weight: 600; }
    .status { display: flex; gap: 8px; align-items: center; font-size: 13px; }

    .layout { flex: 1; display: flex; min-height: 0; }
    .sidebar { width: 250px; flex: none; overflow-y: auto; background: var(--panel); border-right: 1px solid var(--line); padding: 12px 8px; }
    .sidebar h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 14px 8px 6px; }
    .sidebar a { display: flex; justify-content: space-between; gap: 8px; padding: 5px 8px; border-radius: 6px; text-decoration: none; color: var(--text); }
    .sidebar a:hover { background: var(--soft); }
    .sidebar a[aria-current="page"] { background: var(--sel); font-weight: 600; }
    .sidebar .count { color: var(--muted); font-variant-numeric: tabular-nums; font-size: 12px; }
    .main { flex: 1; min-width: 0; overflow: auto; padding: 16px 20px; display: flex; flex-direction: column; }
    .main:focus { outline: none; }
    .main > * { flex: none; }
    .main > .grid { flex: 1 1 auto; }
    .inspector { width: 420px; flex: none; overflow-y: auto; background: var(--panel); border-left: 1px solid var(--line); padding: 14px 16px; }

    h1 { font-size: 20px; margin: 0 0 12px; }
    h2 { font-size: 16px; margin: 18px 0 8px; }
    h3 { font-size: 14px; margin: 14px 0 6px; }

    .badge { display: inline-block; font-size: 11px; line-height: 16px; padding: 0 6px; border-radius: 8px; background: var(--soft); color: var(--muted); font-weight: 500; white-space: nowrap; vertical-align: middle; }
    .badge.pk { background: #f7b267; color: #3b2300; }
    .badge.idx { background: #cde8d5; color: #114625; }
    .badge.warn { background: var(--warn-bg); color: var(--warn); }
    .badge.emb { background: #e4dcf7; color: #3b2673; }
    @media (prefers-color-scheme: dark) { .badge.idx { background: #23462f; color: #bde5c8; } .badge.emb { background: #392d59; color: #d8ccff; } }

    .btn { border: 1px solid var(--line); background: var(--panel); border-radius: 6px; padding: 4px 10px; cursor: pointer; white-space: nowrap; }
    .btn:hover { background: var(--soft); }
    .btn.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
    .btn.danger { color: var(--error); }
    .btn:disabled { opacity: .5; cursor: default; }
    .linkish { border: none; background: none; padding: 0; color: var(--link); cursor: pointer; text-decoration: underline; text-underline-offset: 2px; }
    .linkish:hover { text-decoration-thickness: 2px; }

    .toolbar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
    .toolbar .spring { flex: 1; }
    .group { display: inline-flex; }
    .group > :first-child { border-top-right-radius: 0; border-bottom-right-radius: 0; }
    .group > :last-child { border-top-left-radius: 0; border-bottom-left-radius: 0; border-left: none; }
    select { border: 1px solid var(--line); background: var(--panel); border-radius: 6px; padding: 4px 6px; }
    a.btn { text-decoration: none; color: var(--text); display: inline-block; }
    .query { flex: 1 1 360px; display: flex; gap: 6px; max-width: 1000px; }
    .query input { flex: 1; padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); font-family: var(--mono); font-size: 13px; }
    .query input[aria-invalid="true"] { border-color: var(--error); }
    .error { color: var(--error); background: var(--error-bg); border-radius: 6px; padding: 6px 10px; margin: 4px 0 8px; white-space: pre-wrap; }
    .error .caret { font-family: var(--mono); }
    .note { color: var(--warn); background: var(--warn-bg); border-radius: 6px; padding: 6px 10px; margin: 4px 0 8px; }
    .summary { color: var(--muted); font-variant-numeric: tabular-nums; margin: 2px 0 8px; }

    .grid { position: relative; flex: 1; min-height: 240px; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); display: flex; flex-direction: column; overflow: hidden; }
    .grid-head { display: flex; border-bottom: 1px solid var(--line); background: var(--soft); overflow: hidden; flex: none; }
    .grid-body { position: relative; flex: 1; overflow: auto; }
    .grid-spacer { width: 1px; }
    .grid-rows { position: absolute; left: 0; top: 0; }
    .cell, .hcell { flex: none; padding: 0 8px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; border-right: 1px solid var(--line); }
    .hcell { padding: 4px 8px; font-weight: 600; cursor: pointer; user-select: none; line-height: 1.3; }
    .hcell .type { display: block; font-weight: 400; margin-top: 2px; }
    .hcell[aria-sort="ascending"]::after { content: " ▲"; font-size: 10px; }
    .hcell[aria-sort="descending"]::after { content: " ▼"; font-size: 10px; }
    .hcell.fixed { cursor: default; }
    .row { display: flex; height: var(--row); line-height: var(--row); border-bottom: 1px solid var(--soft); }
    .row:hover { background: var(--soft); }
    .row.selected { background: var(--sel); }
    .row.loading .cell { color: var(--muted); }
    .cell.key { color: var(--muted); font-variant-numeric: tabular-nums; font-family: var(--mono); font-size: 12px; }
    .cell.check, .hcell.check { text-align: center; padding: 0; }
    .cell.editable { cursor: text; }
    .v-null { color: var(--muted); font-style: italic; }
    .v-num { font-family: var(--mono); font-size: 13px; }
    .v-date, .v-id { font-family: var(--mono); font-size: 12.5px; }
    .v-data { font-family: var(--mono); font-size: 12.5px; color: var(--muted); }
    .v-more { color: var(--muted); }
    .expand { border: 1px solid var(--line); background: var(--soft); border-radius: 5px; padding: 0 6px; line-height: 20px; cursor: pointer; font-size: 12.5px; }
    .expand[aria-expanded="true"] { background: var(--sel); }

    .popover { position: fixed; z-index: 5; max-width: 560px; max-height: 60vh; overflow: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 8px 30px rgba(0,0,0,.18); padding: 10px 12px; }
    .tree { list-style: none; margin: 0; padding-left: 16px; }
    .tree.root { padding-left: 0; }
    .tree li { padding: 2px 0; }
    .tree .name { color: var(--muted); margin-right: 6px; font-family: var(--mono); font-size: 12.5px; }

    .props { width: 100%; border-collapse: collapse; }
    .props th, .props td { text-align: left; vertical-align: top; padding: 6px 6px; border-bottom: 1px solid var(--soft); }
    .props th { width: 38%; font-weight: 500; }
    .props td { word-break: break-word; }
    .info { border-collapse: collapse; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
    .info th, .info td { text-align: left; vertical-align: top; padding: 7px 12px; border-bottom: 1px solid var(--soft); }
    .info th { color: var(--muted); font-weight: 500; white-space: nowrap; }
    .classes { border-collapse: collapse; margin-top: 8px; }
    .classes td, .classes th { padding: 4px 12px 4px 0; text-align: left; }
    .classes td.n { text-align: right; font-variant-numeric: tabular-nums; }

    .inspector header { display: flex; align-items: baseline; justify-content: space-between; gap: 8px; }
    .inspector h2 { margin: 0 0 8px; }
    .backlinks li { margin: 3px 0; }

    .diagram { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; overflow: auto; max-height: 70vh; }
    .diagram svg { display: block; }
    .diagram .box { fill: var(--panel); stroke: var(--accent); stroke-width: 1.4; }
    .diagram .box.embedded { stroke-dasharray: 5 3; }
    .diagram .title { fill: var(--accent); }
    .diagram .title-text { fill: var(--accent-text); font-weight: 600; font-size: 13px; }
    .diagram .prop { fill: var(--text); font-size: 12px; font-family: var(--mono); }
    .diagram .prop.pk { font-weight: 700; }
    .diagram .ptype { fill: var(--muted); font-size: 11.5px; font-family: var(--mono); }
    .diagram .edge { fill: none; stroke: var(--muted); stroke-width: 1.3; }
    .diagram .edge.many { stroke-dasharray: 6 3; }
    .diagram .arrow { fill: var(--muted); }
    .diagram a:hover .box { stroke-width: 2.4; }
    .schema-table { border-collapse: collapse; margin-bottom: 10px; }
    .schema-table td, .schema-table th { padding: 3px 14px 3px 0; text-align: left; }
    .tabs { display: flex; gap: 4px; flex-wrap: wrap; margin: 8px 0; }
    .tabs button[aria-selected="true"] { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
    .code { position: relative; }
    .code pre { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; overflow: auto; max-height: 60vh; margin: 0; }
    .code .copy { position: absolute; right: 10px; top: 8px; }

    dialog { border: 1px solid var(--line); border-radius: 10px; background: var(--panel); color: var(--text); padding: 0; width: min(640px, 94vw); box-shadow: 0 12px 40px rgba(0,0,0,.25); }
    dialog::backdrop { background: rgba(10,12,20,.35); }
    dialog form { padding: 16px 18px; }
    dialog h2 { margin: 0 0 12px; }
    .field { margin: 10px 0; }
    .field label { display: block; font-weight: 500; margin-bottom: 3px; }
    .field input[type=text], .field input[type=password], .field textarea, .field select { width: 100%; padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); }
    .field textarea { font-family: var(--mono); font-size: 13px; min-height: 70px; }
    .field .hint { color: var(--muted); font-size: 12.5px; }
    .field .field-error { color: var(--error); font-size: 13px; margin-top: 3px; }
    .field [aria-invalid="true"] { border-color: var(--error); }
    .field .nullbox { font-weight: 400; font-size: 13px; margin-left: 8px; }
    .actions { display: flex; justify-content: flex-end; gap: 8px; margin-top: 14px; }
    .form-scroll { max-height: 60vh; overflow-y: auto; padding-right: 4px; }

    .toast { position: fixed; bottom: 18px; left: 50%; transform: translateX(-50%); background: var(--text); color: var(--bg); padding: 8px 14px; border-radius: 8px; z-index: 20; max-width: 80vw; }
    .toast.bad { background: var(--error); color: #fff; }
    .live { width: 8px; height: 8px; border-radius: 50%; background: var(--ok); display: inline-block; }
    @media (max-width: 900px) { .sidebar { width: 190px; } .inspector { width: 320px; } }
    """#
}
