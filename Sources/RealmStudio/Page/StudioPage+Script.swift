extension StudioPage {
  /// `app.js`: the whole page, without libraries. Views: the file (what `open` shows), a class
  /// as a virtual table (pages fetched by position or key as the table scrolls; its scrollbar
  /// spans every object, 10 million included), one object in the inspector (links, backlinks,
  /// values expanded in place), the schema (an SVG diagram, the model code). Changes go through
  /// dialogs whose fields show the server's errors next to them. The page polls the file's
  /// generation and reloads itself when the file changes on disk.
  static let script = #"""
    "use strict";
    // realmctl studio: the page. Talks to the JSON API of docs/commands/studio.md.

    const CSRF = document.querySelector('meta[name="csrf-token"]').content;
    const PAGE = 100;                 // objects per request
    const MAXPX = 6000000;            // tallest scroll area; larger tables are scaled into it
    const LANGUAGES = [["swift", "Swift"], ["kotlin", "Kotlin"], ["java", "Java"], ["javascript", "JavaScript"],
                       ["typescript", "TypeScript"], ["dart", "Dart"], ["csharp", "C#"]];

    // ---------- small helpers ----------
    function h(tag, attrs, ...kids) {
      const el = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs || {})) {
        if (v === undefined || v === null || v === false) continue;
        if (k === "class") el.className = v;
        else if (k === "text") el.textContent = v;
        else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
        else if (k === "style") Object.assign(el.style, v);
        else el.setAttribute(k, v === true ? "" : v);
      }
      for (const kid of kids.flat()) {
        if (kid === null || kid === undefined || kid === false) continue;
        el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
      }
      return el;
    }
    const $ = (sel, root = document) => root.querySelector(sel);
    const fmt = (n) => Number(n).toLocaleString("en-US");
    const bytes = (n) => n < 1024 ? `${fmt(n)} bytes` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` :
      n < 1073741824 ? `${(n / 1048576).toFixed(1)} MiB` : `${(n / 1073741824).toFixed(2)} GiB`;
    const enc = encodeURIComponent;

    class ApiError extends Error {
      constructor(status, body) {
        super(body && body.error ? body.error : `HTTP ${status}`);
        this.status = status; this.field = body && body.field; this.column = body && body.column; this.code = body && body.code;
      }
    }

    async function api(path, opts = {}) {
      const init = { method: opts.method || "GET", headers: {}, signal: opts.signal, credentials: "same-origin" };
      if (init.method !== "GET") init.headers["X-CSRF-Token"] = CSRF;
      if (opts.json !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = opts.json; }
      if (opts.body !== undefined) { init.headers["Content-Type"] = "application/octet-stream"; init.body = opts.body; }
      const res = await fetch(path, init);
      const type = res.headers.get("Content-Type") || "";
      const body = type.startsWith("application/json") ? await res.json() : await res.text();
      if (!res.ok) throw new ApiError(res.status, typeof body === "object" ? body : { error: String(body).trim() });
      return body;
    }

    function toast(text, bad) {
      const t = $("#toast");
      t.textContent = text; t.className = bad ? "toast bad" : "toast"; t.hidden = false;
      clearTimeout(toast.timer);
      toast.timer = setTimeout(() => { t.hidden = true; }, bad ? 6000 : 3000);
    }

    // ---------- state and routing ----------
    const state = {
      files: [], readOnly: false, fileId: null, info: null, schema: null, generation: 0,
      route: null, grid: null, inspector: null, model: "swift",
    };
    const fileBase = () => `/api/files/${state.fileId}`;
    const classOf = (name) => state.schema && state.schema.classes.find((c) => c.name === name);
    const editable = () => state.info && state.info.editable;

    function parseHash() {
      const m = location.hash.match(/^#\/f\/(\d+)(?:\/(info|schema|c\/([^?]*)))?(?:\?(.*))?$/);
      if (!m) return { file: 0, view: "info", params: new URLSearchParams() };
      return { file: Number(m[1]), view: m[3] !== undefined ? "class" : (m[2] || "info"),
               className: m[3] !== undefined ? decodeURIComponent(m[3]) : null, params: new URLSearchParams(m[4] || "") };
    }
    function classHash(name, params) {
      const q = params ? params.toString() : "";
      return `#/f/${state.fileId}/c/${enc(name)}${q ? "?" + q : ""}`;
    }
    function go(hash) { if (location.hash === hash) route(); else location.hash = hash; }

    async function start() {
      try {
        const list = await api("/api/files");
        state.files = list.files; state.readOnly = list.readOnly;
      } catch (e) { $("#main").replaceChildren(h("p", { class: "error", text: e.message })); return; }
      window.addEventListener("hashchange", route);
      document.addEventListener("keydown", (e) => { if (e.key === "Escape") closePopover(); });
      document.addEventListener("click", (e) => {
        const pop = $("#popover");
        if (!pop.hidden && !pop.contains(e.target) && !e.target.closest(".expand")) closePopover();
      });
      setInterval(poll, 2000);
      route();
    }

    // Navigation, reloads and edits' refreshes run one at a time, in order: each reads and
    // replaces the shared state, and two interleaved would mix two files' answers.
    let queue = Promise.resolve();
    function serially(fn) {
      const run = queue.then(fn, fn);
      queue = run.catch(() => {});
      return run;
    }
    const route = () => serially(routeNow);

    async function routeNow() {
      const r = parseHash();
      closePopover();
      if (!state.files[r.file]) r.file = 0;
      if (state.fileId !== r.file || !state.info) { state.fileId = r.file; closeInspector(); await loadFile(); }
      state.route = r;
      renderFileTabs();
      renderSidebar();
      if (!state.info) return;
      if (state.info.needsKey) { renderKeyPrompt(); return; }
      if (r.view === "schema") renderSchema();
      else if (r.view === "class" && classOf(r.className)) renderClass(r.className, r.params);
      else renderInfo();
      const focusKey = r.params.get("open");
      if (r.view === "class" && focusKey) openObject(r.className, focusKey);
    }

    async function loadFile() {
      state.info = null; state.schema = null;
      try {
        state.info = await api(fileBase());
        if (!state.info.needsKey) {
          state.schema = await api(`${fileBase()}/schema`);
          state.generation = state.info.generation;
        }
      } catch (e) {
        $("#main").replaceChildren(h("h1", { text: state.files[state.fileId].name }), h("p", { class: "error", text: e.message }));
      }
    }

    const reloadFile = (message) => serially(() => reloadNow(message));

    async function reloadNow(message) {
      const keep = state.grid ? state.grid.position() : null;
      await loadFile();
      const r = state.route || parseHash();
      renderFileTabs(); renderSidebar();
      if (!state.info || state.info.needsKey) { await routeNow(); return; }
      if (r.view === "class" && classOf(r.className)) renderClass(r.className, r.params, keep);
      else if (r.view === "schema") renderSchema();
      else renderInfo();
      if (state.inspector) openObject(state.inspector.className, state.inspector.key, true);
      if (message) toast(message);
    }

    async function poll() {
      if (state.fileId === null || !state.info || state.info.needsKey || document.hidden) return;
      const file = state.fileId;
      try {
        const c = await api(`${fileBase()}/changes`);
        if (file === state.fileId && c.generation !== state.generation) {
          await serially(async () => {
            if (file !== state.fileId || c.generation === state.generation) return;
            state.generation = c.generation;
            await reloadNow("The file changed on disk: the page shows it as it is now.");
          });
        }
      } catch (e) { /* the next poll tries again */ }
    }

    // Called after one of our own edits: the file changed because of us.
    async function afterEdit(result, message) {
      if (result && result.generation) state.generation = result.generation;
      await reloadFile(message);
    }

    // ---------- chrome ----------
    function renderFileTabs() {
      const nav = $("#files");
      nav.replaceChildren(...state.files.map((f) => h("a", {
        href: `#/f/${f.id}/info`, "aria-current": f.id === state.fileId ? "page" : null, title: f.path, text: f.name })));
      const status = $("#status");
      const items = [];
      if (state.info && !state.info.needsKey) {
        if (!state.info.editable) {
          items.push(h("span", { class: "badge warn", id: "read-only", title: state.info.readOnlyReason, text: "read-only" }));
        }
        items.push(h("span", { class: "muted", title: "The page reloads itself when the file changes on disk" },
          h("span", { class: "live", "aria-hidden": "true" }), " watching"));
      }
      status.replaceChildren(...items);
    }

    function renderSidebar() {
      const side = $("#sidebar");
      const r = state.route || parseHash();
      const kids = [h("h2", { text: "File" }),
        h("a", { href: `#/f/${state.fileId}/info`, "aria-current": r.view === "info" ? "page" : null }, "Overview"),
        h("a", { href: `#/f/${state.fileId}/schema`, "aria-current": r.view === "schema" ? "page" : null }, "Schema and models")];
      if (state.schema) {
        kids.push(h("h2", { text: "Classes" }));
        for (const c of state.schema.classes) {
          kids.push(h("a", { href: classHash(c.name), class: "class-link", "data-class": c.name,
            "aria-current": r.view === "class" && r.className === c.name ? "page" : null },
            h("span", {}, c.name, c.embedded ? " " : "", c.embedded ? h("span", { class: "badge emb", text: "embedded" }) : null),
            h("span", { class: "count", text: fmt(c.objects) })));
        }
      }
      side.replaceChildren(...kids);
    }

    // ---------- file overview ----------
    function renderInfo() {
      closeInspector();
      const i = state.info;
      const rows = [
        ["Path", i.path], ["Size", bytes(i.size)],
        ["Encrypted", i.encrypted ? `yes (${bytes(i.dataSize)} of data)` : "no"],
        ["File format", `${i.fileFormat}: ${i.writtenBy}`],
        ["Opens as is in", i.opensAsIsIn || "no SDK release: upgrade it"],
        ["Upgraded by", i.upgradedBy || "—"],
        ["Schema version", i.schemaVersion === null ? "none (unversioned)" : String(i.schemaVersion)],
        ["History", `${i.historyType} (${i.history})`],
        ["Compacted copy", i.compacted ? "yes" : "no"],
        ["Free space", `${bytes(i.freeSpace)} in ${fmt(i.freeChunks)} chunk${i.freeChunks === 1 ? "" : "s"}`],
        ["Editing", i.editable ? "yes: changes go through realmctl's insert, update and delete" : `read-only: ${i.readOnlyReason}`],
      ];
      if (i.sync) {
        const s = i.sync;
        rows.push(["Sync", `${s.description}${s.historyEntries !== null ? `, ${fmt(s.historyEntries)} changesets in the history` : ""}`]);
        rows.push(["Not uploaded", s.pendingUploads === null ? "unknown" : `${fmt(s.pendingUploads)} local change${s.pendingUploads === 1 ? "" : "s"}`]);
        if (s.subscriptions) rows.push(["Subscriptions", `${s.subscriptions.items.length} (set version ${s.subscriptions.version}, ${s.subscriptions.state})`]);
      }
      if (i.syncError) rows.push(["Sync", `the sync history cannot be read: ${i.syncError}`]);
      const main = $("#main");
      const kids = [h("h1", {}, i.name),
        h("table", { class: "info" }, h("tbody", {}, rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row", text: k }), h("td", { text: v })))))];
      kids.push(h("h2", { text: `Classes (${i.classes.length})` }));
      kids.push(h("table", { class: "classes" }, h("tbody", {}, i.classes.map((c) => h("tr", {},
        h("td", {}, h("a", { href: classHash(c.name), text: c.name })),
        h("td", { class: "n", text: fmt(c.objects) }), h("td", { class: "muted" },
          [c.embedded ? "embedded" : null, c.asymmetric ? "asymmetric" : null, c.primaryKey ? `primary key ${c.primaryKey}` : null].filter(Boolean).join(", ")))))));
      if (i.otherTables.length) kids.push(h("p", { class: "muted", text: `Other tables: ${i.otherTables.map((t) => `${t.name} (${fmt(t.objects)})`).join(", ")}` }));
      if (i.sync && !state.readOnly) kids.push(unsyncForm(i));
      main.replaceChildren(...kids);
    }

    function unsyncForm(i) {
      const base = i.name.replace(/\.realm$/, "");
      const input = h("input", { type: "text", id: "unsync-name", value: `${base}-local.realm`, "aria-describedby": "unsync-help" });
      const out = h("div", { role: "status" });
      const form = h("form", { class: "toolbar", onsubmit: async (e) => {
        e.preventDefault();
        out.replaceChildren();
        try {
          const r = await api(`${fileBase()}/unsync`, { method: "POST", json: JSON.stringify({ name: input.value }) });
          out.replaceChildren(h("p", { class: "note", text: r.message }));
        } catch (err) { out.replaceChildren(h("p", { class: "error", text: err.message })); }
      } }, h("label", { for: "unsync-name", text: "New local realm " }), input, h("button", { class: "btn primary", type: "submit", text: "Convert" }));
      return h("section", {}, h("h2", { text: "Convert to a local realm" }),
        h("p", { id: "unsync-help", class: "muted", text: "Writes the objects of this synced realm into a new local realm beside it, as `realmctl unsync --output` does: the sync history and bookkeeping are dropped; this file is not changed." }),
        form, out);
    }

    // ---------- encrypted files ----------
    function renderKeyPrompt() {
      closeInspector();
      const input = h("input", { type: "password", id: "key-input", autocomplete: "off", spellcheck: "false",
        "aria-describedby": "key-help", inputmode: "text" });
      const err = h("div", { class: "field-error", id: "key-error", role: "alert" });
      const form = h("form", { onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = "";
        const key = input.value.replace(/\s+/g, "");
        try {
          await api(`${fileBase()}/key`, { method: "POST", json: JSON.stringify({ key }) });
          input.value = "";
          state.info = null;
          route();
        } catch (x) { err.textContent = x.message; input.setAttribute("aria-invalid", "true"); }
      } },
        h("div", { class: "field" }, h("label", { for: "key-input", text: "Encryption key" }), input,
          h("div", { class: "hint", id: "key-help", text: "128 hexadecimal digits (64 bytes). It is sent once to the studio on this machine and kept in its memory only: never in an address, a log or the browser's history." }), err),
        h("div", { class: "actions" }, h("button", { class: "btn primary", type: "submit", text: "Open" })));
      $("#main").replaceChildren(h("h1", {}, state.info.name), h("p", { text: state.info.message }), form);
      input.focus();
    }

    // ---------- values ----------
    const typeLabel = (p) => {
      const base = p.type === "object" ? p.objectType : p.type;
      const inner = base + (p.optional && p.type !== "mixed" && (p.collection !== "single" || p.type !== "object") ? "?" : "");
      if (p.collection === "list") return `List<${inner}>`;
      if (p.collection === "set") return `Set<${inner}>`;
      if (p.collection === "dictionary") return `Map<string, ${inner}>`;
      return p.type === "object" ? `${p.objectType}?` : inner;
    };

    // A value as a compact node (table cells, tree leaves); `expand(v)` makes the button of a
    // collection or embedded object.
    function valueNode(v, ctx) {
      if (v === null) return h("span", { class: "v-null", text: "null" });
      switch (v.t) {
        case "bool": return h("span", { class: "v-num", text: String(v.v) });
        case "int": case "float": case "double": case "decimal128": return h("span", { class: "v-num", text: v.v });
        case "objectId": case "uuid": return h("span", { class: "v-id", text: v.v });
        case "date": return h("span", { class: "v-date", text: v.v !== undefined ? v.v : `${v.seconds}s ${v.nanoseconds}ns` });
        case "string": return h("span", { class: "v-str", title: v.length ? `${fmt(v.length)} characters` : null },
          v.v, v.length ? h("span", { class: "v-more", text: "…" }) : null);
        case "data": return h("span", { class: "v-data", text: `${fmt(v.size)} byte${v.size === 1 ? "" : "s"}${v.size ? " " + v.hex.replace(/(..)/g, "$1 ").trim() + (v.size * 2 > v.hex.length ? " …" : "") : ""}` });
        case "link": return h("button", { class: "linkish link", type: "button", "data-class": v.class, "data-key": v.key,
          onclick: (e) => { e.stopPropagation(); openObject(v.class, v.key); } }, `${v.class} ${v.key}`);
        case "list": case "set": case "dictionary": case "embedded": return ctx && ctx.expand ? ctx.expand(v) : summaryText(v);
        default: return h("span", { text: JSON.stringify(v) });
      }
    }
    function summaryText(v) {
      if (v.t === "embedded") return `${v.class} {${v.n}}`;
      const name = v.t === "list" ? "List" : v.t === "set" ? "Set" : "Map";
      return `${name} (${fmt(v.n)})`;
    }

    // The items of a collection or embedded object, as a tree whose nested values expand in
    // place; `fetchSlice(path, offset)` reads more from the server.
    function valueTree(value, path, fetchSlice, root) {
      const ul = h("ul", { class: root ? "tree root" : "tree" });
      const addItems = (v) => {
        if (v.t === "embedded") {
          for (const p of v.properties) ul.append(treeItem(p.name, p.value, path.concat([p.name]), fetchSlice));
        } else if (v.t === "dictionary") {
          for (const e of v.entries) ul.append(treeItem(e.k, e.v, path.concat([e.k]), fetchSlice));
        } else {
          v.items.forEach((item, i) => ul.append(treeItem(`[${v.offset + i}]`, item, path.concat([v.offset + i]), fetchSlice)));
        }
        const shown = v.t === "embedded" ? v.n : v.offset + (v.items || v.entries).length;
        if (shown < v.n) {
          const more = h("li", {}, h("button", { class: "linkish", type: "button", text: `${fmt(v.n - shown)} more…`, onclick: async () => {
            more.remove();
            try { addItems(await fetchSlice(path, shown)); } catch (e) { ul.append(h("li", { class: "error", text: e.message })); }
          } }));
          ul.append(more);
        }
      };
      if (value.n === 0) ul.append(h("li", { class: "muted", text: "empty" })); else addItems(value);
      return ul;
    }
    function treeItem(name, v, path, fetchSlice) {
      const li = h("li", {}, h("span", { class: "name", text: name }));
      if (v && ["list", "set", "dictionary", "embedded"].includes(v.t)) {
        li.append(expandButton(v, async (btn) => {
          if (btn.nextSibling) { btn.nextSibling.remove(); btn.setAttribute("aria-expanded", "false"); return; }
          btn.setAttribute("aria-expanded", "true");
          try { li.append(valueTree(await fetchSlice(path, 0), path, fetchSlice)); }
          catch (e) { li.append(h("div", { class: "error", text: e.message })); }
        }));
      } else li.append(valueNode(v));
      return li;
    }
    function expandButton(v, onclick) {
      return h("button", { class: "expand", type: "button", "aria-expanded": "false", "data-kind": v.t,
        onclick: (e) => { e.stopPropagation(); onclick(e.currentTarget); } }, "▸ ", summaryText(v));
    }
    const slicer = (className, key, property) => async (path, offset) => {
      const r = await api(`${fileBase()}/classes/${enc(className)}/objects/${key}/value?property=${enc(property)}&path=${enc(JSON.stringify(path))}&offset=${offset}&limit=100`);
      return r.value;
    };

    function closePopover() {
      const pop = $("#popover");
      if (!pop.hidden) {
        pop.hidden = true; pop.replaceChildren();
        if (closePopover.owner) { closePopover.owner.setAttribute("aria-expanded", "false"); closePopover.owner.focus(); }
        closePopover.owner = null;
      }
    }
    async function showPopover(button, title, load) {
      if (closePopover.owner === button) { closePopover(); return; }
      closePopover();
      const pop = $("#popover");
      const rect = button.getBoundingClientRect();
      pop.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - 580))}px`;
      pop.style.top = `${Math.min(rect.bottom + 4, window.innerHeight - 120)}px`;
      pop.replaceChildren(h("p", { class: "muted", text: "Loading…" }));
      pop.hidden = false;
      closePopover.owner = button;
      button.setAttribute("aria-expanded", "true");
      try {
        const content = await load();
        pop.replaceChildren(h("div", { class: "muted", text: title }), content);
      } catch (e) { pop.replaceChildren(h("p", { class: "error", text: e.message })); }
    }

    // ---------- a class as a virtual table ----------
    function columnWidth(p) {
      if (p.collection !== "single") return 150;
      return { bool: 70, int: 110, float: 110, double: 120, decimal128: 140, objectId: 220, uuid: 300, string: 220,
               data: 200, date: 250, mixed: 170, object: 150 }[p.type] || 150;
    }

    class Grid {
      constructor(cls, params, keep) {
        this.cls = cls; this.where = params.get("where") || ""; this.sort = params.get("sort"); this.order = params.get("order") || "asc";
        this.pages = new Map(); this.loading = new Map(); this.total = null; this.exact = false; this.sortLimit = null;
        this.selected = new Set(); this.pos = 0; this.gen = state.generation; this.rowH = 30; this.pool = [];
        this.error = null;
        this.columns = [];
        if (editable()) this.columns.push({ kind: "check", width: 36 });
        this.columns.push({ kind: "key", width: 90 });
        cls.properties.forEach((p, i) => this.columns.push({ kind: "prop", p, i, width: columnWidth(p) }));
        this.width = this.columns.reduce((s, c) => s + c.width, 0);
        this.onSummary = () => {}; this.onError = () => {}; this.onSelection = () => {}; this.pageWindow = null;
        this.build();
        if (keep) this.pos = keep;
      }
      params(extra) {
        const q = new URLSearchParams();
        if (this.where) q.set("where", this.where);
        if (this.sort) { q.set("sort", this.sort); q.set("order", this.order); }
        for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
        return q;
      }
      build() {
        const head = h("div", { class: "grid-head", role: "row" });
        for (const c of this.columns) {
          let cell;
          if (c.kind === "check") cell = h("div", { class: "hcell fixed check", role: "columnheader" }, h("span", { class: "muted", "aria-label": "Selection", text: "✓" }));
          else if (c.kind === "key") cell = h("div", { class: "hcell fixed", role: "columnheader", title: "The object key" }, "key", h("span", { class: "type badge", text: "$key" }));
          else {
            const p = c.p;
            const sortable = p.collection === "single" && !(p.type === "object" && !classOf(p.objectType)?.embedded && false);
            const badges = [h("span", { class: "badge", text: typeLabel(p) })];
            if (p.primaryKey) badges.push(" ", h("span", { class: "badge pk", text: "PK", title: "primary key" }));
            else if (p.indexed) badges.push(" ", h("span", { class: "badge idx", text: "indexed", title: "search index" }));
            cell = h("div", { class: "hcell", role: "columnheader", tabindex: sortable ? "0" : null, "data-property": p.name,
              "aria-sort": this.sort === p.name ? (this.order === "desc" ? "descending" : "ascending") : (sortable ? "none" : null),
              title: sortable ? "Sort by this column" : null },
              p.name, h("span", { class: "type" }, ...badges));
            if (sortable) {
              const act = () => this.toggleSort(p.name);
              cell.addEventListener("click", act);
              cell.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } });
            }
          }
          cell.style.width = `${c.width}px`;
          head.append(cell);
        }
        this.head = head;
        this.spacer = h("div", { class: "grid-spacer" });
        this.rows = h("div", { class: "grid-rows", role: "rowgroup" });
        this.rows.style.width = `${this.width}px`;
        this.spacer.style.width = `${this.width}px`;
        this.body = h("div", { class: "grid-body", tabindex: "0", "aria-label": `Objects of ${this.cls.name}` }, this.spacer, this.rows);
        this.el = h("div", { class: "grid", role: "grid", "aria-label": `Objects of ${this.cls.name}`, "aria-colcount": String(this.columns.length) }, head, this.body);
        this.body.addEventListener("scroll", () => this.onScroll(), { passive: true });
        this.body.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
        this.body.addEventListener("keydown", (e) => this.onKey(e));
        new ResizeObserver(() => this.render()).observe(this.body);
      }
      toggleSort(name) {
        const q = new URLSearchParams();
        if (this.where) q.set("where", this.where);
        if (this.sort !== name) { q.set("sort", name); q.set("order", "asc"); }
        else if (this.order === "asc") { q.set("sort", name); q.set("order", "desc"); }
        go(classHash(this.cls.name, q));
      }
      async start() {
        this.fetchPage(Math.floor(this.pos / PAGE));
        if (!this.where) { this.total = this.cls.objects; this.exact = true; }
        else {
          try {
            const c = await api(`${fileBase()}/classes/${enc(this.cls.name)}/count?${this.params()}`);
            if (this.gen === state.generation && state.grid === this) { this.total = c.count; this.exact = true; this.render(); this.onSummary(); }
          } catch (e) { /* the page request shows the error */ }
        }
        this.render();
        this.onSummary();
      }
      // Rows the table spans: the count when known, else what is loaded and one page more.
      span() {
        let n = this.total;
        if (n === null) {
          let loaded = 0, more = true;
          for (const [p, page] of this.pages) { loaded = Math.max(loaded, p * PAGE + page.objects.length); if (p * PAGE + page.objects.length === loaded) more = page.hasMore; }
          n = loaded + (more ? PAGE : 0);
        }
        if (this.sort && this.sortLimit) n = Math.min(n, this.sortLimit);
        return n;
      }
      visibleRows() { return Math.max(1, Math.ceil(this.body.clientHeight / this.rowH)); }
      maxPos() { return Math.max(0, this.span() - this.visibleRows() + 1); }
      scrollHeight() { return Math.min(this.span() * this.rowH, MAXPX); }
      onWheel(e) {
        if (e.ctrlKey) return;
        const scaled = this.span() * this.rowH > MAXPX;
        if (!scaled) return;   // the browser scrolls pixel for pixel
        e.preventDefault();
        const dy = e.deltaMode === 1 ? e.deltaY * this.rowH : e.deltaMode === 2 ? e.deltaY * this.body.clientHeight : e.deltaY;
        this.body.scrollLeft += e.deltaX;
        this.setPos(this.pos + dy / this.rowH);
      }
      onKey(e) {
        const page = this.visibleRows() - 1;
        const moves = { PageDown: page, PageUp: -page, ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity };
        if (!(e.key in moves)) return;
        e.preventDefault();
        const d = moves[e.key];
        this.setPos(d === Infinity ? this.maxPos() : d === -Infinity ? 0 : this.pos + d);
      }
      setPos(p) {
        this.pos = Math.max(0, Math.min(p, this.maxPos()));
        const max = this.scrollHeight() - this.body.clientHeight;
        this.ignoreScroll = true;
        this.body.scrollTop = this.maxPos() > 0 ? Math.round(this.pos / this.maxPos() * Math.max(0, max)) : 0;
        this.render();
      }
      onScroll() {
        this.head.scrollLeft = this.body.scrollLeft;
        if (this.ignoreScroll) { this.ignoreScroll = false; }
        else {
          const max = this.scrollHeight() - this.body.clientHeight;
          if (this.span() * this.rowH <= MAXPX) this.pos = this.body.scrollTop / this.rowH;
          else this.pos = max > 0 ? this.body.scrollTop / max * this.maxPos() : 0;
        }
        if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = null; this.render(); });
      }
      position() { return this.pos; }
      row(i) {
        const page = this.pages.get(Math.floor(i / PAGE));
        return page ? page.objects[i % PAGE] || null : undefined;
      }
      render() {
        if (!this.body.isConnected) return;
        const height = this.scrollHeight();
        this.spacer.style.height = `${height}px`;
        this.pos = Math.max(0, Math.min(this.pos, this.maxPos()));
        const first = Math.floor(this.pos);
        const count = this.visibleRows() + 1;
        const offsetPx = this.span() * this.rowH <= MAXPX ? first * this.rowH : this.body.scrollTop - (this.pos - first) * this.rowH;
        this.rows.style.transform = `translateY(${Math.max(0, offsetPx)}px)`;
        while (this.pool.length < count) { const r = h("div", { class: "row", role: "row" }); this.pool.push(r); this.rows.append(r); }
        const span = this.span();
        const wanted = new Set();
        for (let n = 0; n < this.pool.length; n++) {
          const el = this.pool[n];
          const i = first + n;
          if (n >= count || i >= span) { el.hidden = true; continue; }
          el.hidden = false;
          const object = this.row(i);
          if (object === undefined) { wanted.add(Math.floor(i / PAGE)); }
          const stamp = object ? `${object.key}:${this.selected.has(object.key)}` : object === null ? "none" : "loading";
          if (el.dataset.index === String(i) && el.dataset.stamp === stamp) continue;
          el.dataset.index = String(i); el.dataset.stamp = stamp;
          el.setAttribute("aria-rowindex", String(i + 2));
          this.fillRow(el, i, object);
        }
        for (const p of wanted) this.fetchPage(p);
        if (this.pageWindow) this.pageWindow(first, Math.min(span, first + count - 1));
      }
      fillRow(el, i, object) {
        el.className = object ? (this.selected.has(object.key) ? "row selected" : "row") : "row loading";
        if (object) el.dataset.key = object.key; else delete el.dataset.key;
        const cells = [];
        for (const c of this.columns) {
          let cell;
          if (!object) {
            cell = h("div", { class: "cell", role: "gridcell" }, c.kind === "key" ? (object === null ? "" : "…") : "");
          } else if (c.kind === "check") {
            const box = h("input", { type: "checkbox", "aria-label": `Select object ${object.key}`, checked: this.selected.has(object.key) });
            box.addEventListener("click", (e) => e.stopPropagation());
            box.addEventListener("change", () => { if (box.checked) this.selected.add(object.key); else this.selected.delete(object.key); this.render(); this.onSelection(); });
            cell = h("div", { class: "cell check", role: "gridcell" }, box);
          } else if (c.kind === "key") {
            cell = h("div", { class: "cell key", role: "rowheader" }, h("button", { class: "linkish open", type: "button", title: "Open this object", text: object.key,
              onclick: (e) => { e.stopPropagation(); openObject(this.cls.name, object.key); } }));
          } else {
            const v = object.values[c.i];
            const ctx = { expand: (val) => expandButton(val, (btn) => showPopover(btn, `${this.cls.name} ${object.key} · ${c.p.name}`,
              async () => valueTree(await slicer(this.cls.name, object.key, c.p.name)([], 0), [], slicer(this.cls.name, object.key, c.p.name), true))) };
            cell = h("div", { class: "cell", role: "gridcell", "data-property": c.p.name, title: editable() && !c.p.primaryKey ? "Double-click to edit" : null }, valueNode(v, ctx));
            if (editable() && !c.p.primaryKey) {
              cell.classList.add("editable");
              cell.addEventListener("dblclick", () => editValue(this.cls, object.key, c.p));
            }
          }
          cell.style.width = `${c.width}px`;
          cells.push(cell);
        }
        el.replaceChildren(...cells);
      }
      async fetchPage(p) {
        if (this.pages.has(p) || this.loading.has(p) || this.error) return;
        if (this.sort && this.sortLimit !== null && p * PAGE >= this.sortLimit) return;
        const gen = this.gen;
        const promise = api(`${fileBase()}/classes/${enc(this.cls.name)}/objects?${this.params({ offset: p * PAGE, limit: PAGE })}`);
        this.loading.set(p, promise);
        try {
          const page = await promise;
          if (gen !== this.gen || state.grid !== this) return;
          this.pages.set(p, page);
          if (page.total !== null && page.total !== undefined && !this.exact) this.total = page.total;
          if (!page.hasMore && (this.total === null || !this.exact)) { this.total = p * PAGE + page.objects.length; this.exact = true; }
          this.error = null;
          this.render(); this.onSummary();
        } catch (e) {
          if (state.grid !== this) return;
          if (e.code === "sortWindow") { this.sortLimit = p * PAGE; this.render(); this.onSummary(); return; }
          // Nothing to show: no rows waiting for a page that will not come.
          this.error = e; this.total = 0; this.exact = true; this.render(); this.onError(e);
        } finally { this.loading.delete(p); }
      }
    }

    function renderClass(name, params, keep) {
      const cls = classOf(name);
      const main = $("#main");
      const where = params.get("where") || "";
      const input = h("input", { type: "search", id: "rql", value: where, placeholder: "Realm Query Language, e.g. age > 30 AND name BEGINSWITH \"A\"",
        "aria-label": "Filter (Realm Query Language)", "aria-describedby": "rql-error", spellcheck: "false", autocomplete: "off" });
      const errorBox = h("div", { id: "rql-error", "aria-live": "polite" });
      const summary = h("div", { class: "summary", id: "summary", "aria-live": "polite" });
      const form = h("form", { class: "query", role: "search", onsubmit: (e) => {
        e.preventDefault();
        const q = new URLSearchParams(params);
        q.delete("open");
        if (input.value.trim()) q.set("where", input.value.trim()); else q.delete("where");
        go(classHash(name, q));
      } }, input, h("button", { class: "btn primary", type: "submit", text: "Filter" }),
        where ? h("button", { class: "btn", type: "button", text: "Clear", onclick: () => { const q = new URLSearchParams(params); q.delete("where"); q.delete("open"); go(classHash(name, q)); } }) : null);
      const del = h("button", { class: "btn danger", type: "button", id: "delete-selected", disabled: true, text: "Delete", onclick: () => deleteSelected(cls) });
      const tools = h("div", { class: "toolbar" },
        editable() && !cls.embedded ? h("button", { class: "btn", type: "button", id: "add-object", text: "Add object", onclick: () => addObject(cls) }) : null,
        editable() && !cls.embedded ? del : null,
        exportMenu(cls, where),
        editable() && !cls.embedded ? h("button", { class: "btn", type: "button", id: "import", text: "Import…", onclick: () => importDialog(cls) }) : null,
        h("span", { class: "spring" }),
        h("button", { class: "btn", type: "button", id: "last-page", title: "Go to the last objects (End)", text: "Last objects ⇥",
          onclick: () => { state.grid.setPos(state.grid.maxPos()); state.grid.body.focus(); } }));
      const heading = h("h1", {}, name, " ", cls.embedded ? h("span", { class: "badge emb", text: "embedded" }) : null,
        cls.primaryKey ? h("span", { class: "muted", text: ` · primary key ${cls.primaryKey}` }) : null);
      const grid = new Grid(cls, params, keep);
      state.grid = grid;
      grid.onSummary = () => {
        const n = grid.total;
        let text;
        if (grid.where) text = n === null ? "counting matches…" : `${fmt(n)} of ${fmt(cls.objects)} objects match`;
        else text = `${fmt(cls.objects)} object${cls.objects === 1 ? "" : "s"}`;
        if (grid.sort) text += ` · sorted by ${grid.sort} ${grid.order === "desc" ? "descending" : "ascending"}`;
        if (grid.sortLimit) text += ` · a sorted view shows its first ${fmt(grid.sortLimit)} objects: sort the other way or filter for the rest`;
        summary.textContent = text;
        if (!grid.error) { errorBox.replaceChildren(); input.removeAttribute("aria-invalid"); }
      };
      grid.pageWindow = (a, b) => {
        if (b > a) summary.dataset.window = `${a + 1}-${b}`;
      };
      grid.onSelection = () => {
        del.disabled = grid.selected.size === 0;
        del.textContent = grid.selected.size ? `Delete ${grid.selected.size}` : "Delete";
      };
      grid.onError = (e) => {
        if (e.code === "query" || e.column) {
          input.setAttribute("aria-invalid", "true");
          const caret = e.column ? h("div", { class: "caret" }, (where || "") + "\n" + " ".repeat(Math.max(0, e.column - 1)) + "^") : null;
          errorBox.replaceChildren(h("div", { class: "error", id: "query-error" }, caret, e.column ? `column ${e.column}: ${e.message}` : e.message));
        } else {
          errorBox.replaceChildren(h("div", { class: "error" }, e.message));
        }
        summary.textContent = "";
      };
      const readOnly = !editable() && state.info.readOnlyReason
        ? h("p", { class: "note", id: "read-only-reason", text: `Read-only: ${state.info.readOnlyReason}.` }) : null;
      main.replaceChildren(...[heading, readOnly, h("div", { class: "toolbar" }, form), errorBox, tools, summary, grid.el].filter(Boolean));
      grid.start();
    }

    function exportMenu(cls, where) {
      const select = h("select", { id: "export-format", "aria-label": "Export format" },
        h("option", { value: "jsonl", text: "JSON Lines" }), h("option", { value: "csv", text: "CSV" }), h("option", { value: "sql", text: "SQL (SQLite)" }));
      const link = h("a", { class: "btn", id: "export", download: "", text: where ? "Export matches" : "Export" });
      const update = () => {
        const q = new URLSearchParams({ format: select.value });
        if (where) q.set("where", where);
        link.href = `${fileBase()}/classes/${enc(cls.name)}/export?${q}`;
      };
      select.addEventListener("change", update);
      update();
      return h("span", { class: "group" }, select, link);
    }

    // ---------- the inspector: one object ----------
    function closeInspector() {
      const box = $("#inspector");
      box.hidden = true; box.replaceChildren(); state.inspector = null;
    }
    async function openObject(className, key, quiet) {
      const box = $("#inspector");
      const cls = classOf(className);
      if (!cls) return;
      state.inspector = { className, key };
      if (!quiet) box.replaceChildren(h("p", { class: "muted", text: "Loading…" }));
      box.hidden = false;
      let o;
      try { o = await api(`${fileBase()}/classes/${enc(className)}/objects/${key}`); }
      catch (e) { box.replaceChildren(inspectorHeader(className, key), h("p", { class: "error", text: e.message })); return; }
      if (!state.inspector || state.inspector.key !== key || state.inspector.className !== className) return;
      const rows = cls.properties.map((p, i) => {
        const v = o.values[i];
        const cell = h("td", { "data-property": p.name });
        if (v && ["list", "set", "dictionary", "embedded"].includes(v.t)) {
          const fetch = slicer(className, key, p.name);
          cell.append(expandButton(v, async (btn) => {
            if (btn.nextSibling) { btn.nextSibling.remove(); btn.setAttribute("aria-expanded", "false"); return; }
            btn.setAttribute("aria-expanded", "true");
            try { cell.append(valueTree(await fetch([], 0), [], fetch, true)); } catch (e) { cell.append(h("div", { class: "error", text: e.message })); }
          }));
        } else cell.append(valueNode(v));
        if (editable() && !p.primaryKey && !cls.embedded) {
          cell.append(" ", h("button", { class: "linkish edit", type: "button", "aria-label": `Edit ${p.name}`, text: "edit",
            onclick: () => editValue(cls, key, p, o.canonical[i]) }));
        }
        return h("tr", {}, h("th", { scope: "row" }, p.name, " ", h("span", { class: "badge", text: typeLabel(p) }),
          p.primaryKey ? [" ", h("span", { class: "badge pk", text: "PK" })] : null), cell);
      });
      const back = h("section", { class: "backlinks" }, h("h3", { text: "Linking objects" }));
      if (!o.backlinks.length) back.append(h("p", { class: "muted", text: "No object links to this one." }));
      for (const b of o.backlinks) {
        back.append(h("div", {}, h("span", { class: "mono", text: `${b.class}.${b.property}` }), h("span", { class: "muted", text: ` (${fmt(b.n)})` }),
          h("ul", {}, b.keys.map((k) => h("li", {}, h("button", { class: "linkish backlink", type: "button", "data-class": b.class, "data-key": k,
            text: `${b.class} ${k}`, onclick: () => openObject(b.class, k) }))), b.n > b.keys.length ? h("li", { class: "muted", text: `and ${fmt(b.n - b.keys.length)} more` }) : null)));
      }
      box.replaceChildren(inspectorHeader(className, key), h("table", { class: "props" }, h("tbody", {}, rows)), back);
    }
    function inspectorHeader(className, key) {
      return h("header", {}, h("h2", { id: "inspector-title" }, `${className} `, h("span", { class: "muted", text: key })),
        h("span", {},
          classOf(className) && !classOf(className).embedded ? h("a", { class: "btn", href: classHash(className), text: "Class" }) : null, " ",
          h("button", { class: "btn", type: "button", "aria-label": "Close the object", text: "✕", onclick: closeInspector })));
    }

    // ---------- dialogs and forms ----------
    function dialog(title, body, submitText, onSubmit) {
      const d = $("#dialog");
      const err = h("div", { class: "error", role: "alert", hidden: true, id: "dialog-error" });
      const submit = h("button", { class: "btn primary", type: "submit", text: submitText, id: "dialog-submit" });
      const form = h("form", { method: "dialog", onsubmit: async (e) => {
        e.preventDefault();
        err.hidden = true;
        for (const x of form.querySelectorAll(".field-error")) x.textContent = "";
        for (const x of form.querySelectorAll("[aria-invalid]")) x.removeAttribute("aria-invalid");
        submit.disabled = true;
        try { await onSubmit(form); d.close(); }
        catch (x) {
          const fieldBox = x.field && form.querySelector(`.field[data-field="${CSS.escape(x.field)}"]`);
          if (fieldBox) {
            fieldBox.querySelector(".field-error").textContent = x.message;
            const input = fieldBox.querySelector("input, textarea, select");
            if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
          } else { err.textContent = x.message; err.hidden = false; }
        } finally { submit.disabled = false; }
      } }, h("h2", { id: "dialog-title", text: title }), body, err,
        h("div", { class: "actions" }, h("button", { class: "btn", type: "button", text: "Cancel", onclick: () => d.close() }), submit));
      d.replaceChildren(form);
      d.showModal();
      const first = form.querySelector("input:not([type=checkbox]), textarea, select");
      if (first) first.focus();
      return form;
    }

    const isComplex = (p) => p.collection !== "single" || p.type === "mixed" || (p.type === "object" && classOf(p.objectType)?.embedded);

    // One input for a property: its text (canonical JSON for complex values), whether it is
    // null, and `json()` giving the value as dump JSON text (`undefined`: left out).
    function valueField(p, initial, forNew) {
      const id = `f-${p.name}`;
      const box = h("div", { class: "field", "data-field": p.name });
      const label = h("label", { for: id }, p.name, " ", h("span", { class: "badge", text: typeLabel(p) }), p.primaryKey ? [" ", h("span", { class: "badge pk", text: "PK" })] : null);
      let input, hint = "";
      const complex = isComplex(p);
      let text = "";
      let isNull = initial === "null" || initial === undefined && p.optional;
      if (initial !== undefined && initial !== "null") {
        try {
          const j = JSON.parse(initial);
          if (complex) text = initial;
          else if (p.type === "string") text = j;
          else if (p.type === "bool") text = String(j);
          else if (p.type === "date") text = j.$date !== undefined ? (typeof j.$date === "string" ? j.$date : JSON.stringify(j)) : initial;
          else if (p.type === "decimal128") text = j.$decimal; else if (p.type === "objectId") text = j.$oid;
          else if (p.type === "uuid") text = j.$uuid; else if (p.type === "data") text = j.$binary;
          else if (p.type === "object") text = String(j.$key);
          else if ((p.type === "float" || p.type === "double") && typeof j === "object") text = j.$float !== undefined ? j.$float : j.$double;
          else text = initial;   // numbers as written (exact)
        } catch (e) { text = initial; }
      } else if (forNew && complex) {
        text = p.collection === "dictionary" ? "{}" : p.collection !== "single" ? "[]" : "null";
        isNull = false;
      }
      if (p.type === "bool" && !complex) {
        input = h("select", { id }, h("option", { value: "true", text: "true" }), h("option", { value: "false", text: "false" }));
        input.value = text === "true" ? "true" : "false";
      } else if (complex || (p.type === "string" && text.length > 80)) {
        input = h("textarea", { id, spellcheck: "false" }); input.value = text;
        if (complex) hint = p.type === "mixed" && p.collection === "single" ? "Any value, as JSON in the dump's form (docs/dump-format.md): 42, \"text\", {\"$date\": \"2024-01-02T03:04:05Z\"}, [1, 2], null"
          : "As JSON in the dump's form (docs/dump-format.md): lists as arrays, dictionaries as objects, embedded objects inline, links as {\"$ref\": \"Class\", \"$key\": 3}.";
      } else {
        input = h("input", { type: "text", id, spellcheck: "false", autocomplete: "off" }); input.value = text;
        hint = { date: "UTC, ISO 8601: 2024-01-02T03:04:05Z (up to 9 fraction digits)", data: "Base64", object: `The key of the ${p.objectType} object`,
                 decimal128: "A decimal: 1.5, -2E+10, NaN, Inf", objectId: "24 hexadecimal digits", uuid: "8-4-4-4-12 hexadecimal digits",
                 float: "A number, or NaN, Infinity, -Infinity", double: "A number, or NaN, Infinity, -Infinity", int: "An integer" }[p.type] || "";
      }
      input.setAttribute("aria-describedby", `${id}-hint`);
      let nullBox = null;
      if (p.optional && p.collection === "single" && p.type !== "mixed" && !(p.type === "object" && classOf(p.objectType)?.embedded)) {
        nullBox = h("input", { type: "checkbox", id: `${id}-null`, checked: isNull });
        const sync = () => { input.disabled = nullBox.checked; };
        nullBox.addEventListener("change", sync); sync();
        label.append(h("label", { class: "nullbox", for: `${id}-null` }, nullBox, " null"));
      }
      box.append(label, input, h("div", { class: "hint", id: `${id}-hint`, text: hint }), h("div", { class: "field-error", role: "alert" }));
      box.json = () => {
        if (nullBox && nullBox.checked) return "null";
        const t = input.value;
        if (complex) return t.trim() === "" ? undefined : t;
        switch (p.type) {
          case "bool": return t;
          case "string": return JSON.stringify(t);
          case "int": return t.trim() === "" ? undefined : (/^-?\d+$/.test(t.trim()) ? t.trim() : JSON.stringify(t));
          case "float": case "double": {
            const s = t.trim();
            if (s === "") return undefined;
            if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return s;
            if (["NaN", "Infinity", "-Infinity"].includes(s)) return `{"$${p.type}":${JSON.stringify(s)}}`;
            return JSON.stringify(s);
          }
          case "decimal128": return t.trim() === "" ? undefined : `{"$decimal":${JSON.stringify(t.trim())}}`;
          case "objectId": return t.trim() === "" ? undefined : `{"$oid":${JSON.stringify(t.trim())}}`;
          case "uuid": return t.trim() === "" ? undefined : `{"$uuid":${JSON.stringify(t.trim())}}`;
          case "date": return t.trim() === "" ? undefined : `{"$date":${JSON.stringify(t.trim())}}`;
          case "data": return `{"$binary":${JSON.stringify(t.replace(/\s+/g, ""))}}`;
          case "object": {
            const s = t.trim();
            if (s === "") return p.optional ? "null" : undefined;
            return /^-?\d+$/.test(s) ? `{"$ref":${JSON.stringify(p.objectType)},"$key":${s}}` : JSON.stringify(s);
          }
          default: return t;
        }
      };
      return box;
    }
    const valuesBody = (fields) => {
      const parts = [];
      for (const f of fields) { const j = f.json(); if (j !== undefined) parts.push(`${JSON.stringify(f.dataset.field)}:${j}`); }
      return `{"values":{${parts.join(",")}}}`;
    };

    async function editValue(cls, key, p, canonical) {
      if (canonical === undefined) {
        try { canonical = (await api(`${fileBase()}/classes/${enc(cls.name)}/objects/${key}`)).canonical[cls.properties.indexOf(p)]; }
        catch (e) { toast(e.message, true); return; }
      }
      const field = valueField(p, canonical === null ? undefined : canonical, false);
      dialog(`Edit ${cls.name} ${key} · ${p.name}`, field, "Save", async () => {
        const r = await api(`${fileBase()}/classes/${enc(cls.name)}/objects/${key}`, { method: "POST", json: valuesBody([field]) });
        await afterEdit(r, `Saved ${cls.name} ${key}.`);
      });
    }

    function addObject(cls) {
      const props = cls.properties.slice().sort((a, b) => (b.primaryKey ? 1 : 0) - (a.primaryKey ? 1 : 0));
      const fields = props.map((p) => valueField(p, undefined, true));
      dialog(`Add an object to ${cls.name}`, h("div", { class: "form-scroll" },
        h("p", { class: "muted", text: "Properties left empty are null (optional), empty (collections) or an error (required), as with realmctl insert." }), fields),
        "Add", async () => {
          const r = await api(`${fileBase()}/classes/${enc(cls.name)}/objects`, { method: "POST", json: valuesBody(fields) });
          await afterEdit(r, `Added an object to ${cls.name}.`);
          if (state.grid) state.grid.setPos(state.grid.maxPos());
        });
    }

    function deleteSelected(cls, cascade) {
      const grid = state.grid;
      const keys = Array.from(grid.selected);
      if (!keys.length) return;
      const text = cascade ? `These ${keys.length} object(s) own ${cascade} embedded object(s), which will be deleted with them.`
        : `Delete ${keys.length} object(s) of ${cls.name}? Links to them become null; they leave every list, set and dictionary.`;
      dialog(cascade ? "Delete embedded objects too?" : "Delete objects", h("p", { text }), cascade ? "Delete them all" : "Delete", async () => {
        try {
          const r = await api(`${fileBase()}/classes/${enc(cls.name)}/delete`, { method: "POST", json: JSON.stringify({ keys, cascade: !!cascade }) });
          grid.selected.clear();
          if (state.inspector && keys.includes(state.inspector.key)) closeInspector();
          await afterEdit(r, `Deleted ${r.deleted} object(s)${r.embeddedDeleted ? ` and ${r.embeddedDeleted} embedded object(s)` : ""}.`);
        } catch (e) {
          if (e.code === "cascade") {
            const m = e.message.match(/own (\d+) embedded/);
            setTimeout(() => deleteSelected(cls, m ? m[1] : "some"), 0);
            return;
          }
          throw e;
        }
      });
    }

    function importDialog(cls) {
      const file = h("input", { type: "file", id: "import-file", accept: ".csv,.jsonl,.json,.ndjson,text/csv" });
      const format = h("select", { id: "import-format" }, h("option", { value: "auto", text: "From the file name" }),
        h("option", { value: "csv", text: "CSV (rows of this class)" }), h("option", { value: "jsonl", text: "JSON Lines (the dump's shape)" }));
      const upsert = h("input", { type: "checkbox", id: "import-upsert" });
      const body = h("div", {},
        h("p", { class: "muted", text: `Objects are inserted as realmctl insert does: CSV rows are objects of ${cls.name} (a header row names the properties); JSON Lines name their class with $class. Everything is checked before anything is written.` }),
        h("div", { class: "field", "data-field": "file" }, h("label", { for: "import-file", text: "File" }), file, h("div", { class: "field-error", role: "alert" })),
        h("div", { class: "field" }, h("label", { for: "import-format", text: "Format" }), format),
        h("div", { class: "field" }, h("label", {}, upsert, " Update objects whose primary key exists (upsert)")));
      dialog(`Import into ${cls.name}`, body, "Import", async () => {
        const f = file.files[0];
        if (!f) { const e = new Error("Choose a file."); e.field = "file"; throw e; }
        const kind = format.value !== "auto" ? format.value : (/\.csv$/i.test(f.name) ? "csv" : "jsonl");
        const q = new URLSearchParams({ format: kind, name: f.name });
        if (upsert.checked) q.set("mode", "upsert");
        const r = await api(`${fileBase()}/classes/${enc(cls.name)}/import?${q}`, { method: "POST", body: await f.arrayBuffer() });
        await afterEdit(r, `Imported ${fmt(r.inserted)} new and ${fmt(r.updated)} updated object(s).`);
      });
    }

    // ---------- schema: diagram, properties, model code ----------
    function renderSchema() {
      closeInspector();
      const s = state.schema;
      const main = $("#main");
      const code = h("pre", { id: "model-code", tabindex: "0" }, h("code", { text: "Loading…" }));
      const copy = h("button", { class: "btn copy", type: "button", id: "copy-code", text: "Copy", onclick: async () => {
        const text = code.textContent;
        try { await navigator.clipboard.writeText(text); }
        catch (e) { const r = document.createRange(); r.selectNodeContents(code); const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r); document.execCommand("copy"); }
        copy.textContent = "Copied"; setTimeout(() => { copy.textContent = "Copy"; }, 1500);
      } });
      const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": "Language" });
      const load = async (lang) => {
        state.model = lang;
        for (const b of tabs.children) b.setAttribute("aria-selected", b.dataset.lang === lang ? "true" : "false");
        try { code.firstChild.textContent = await api(`${fileBase()}/models/${lang}`); } catch (e) { code.firstChild.textContent = e.message; }
      };
      for (const [lang, label] of LANGUAGES) tabs.append(h("button", { class: "btn", type: "button", role: "tab", "data-lang": lang, text: label, onclick: () => load(lang) }));
      const tables = s.classes.map((c) => h("section", {},
        h("h3", {}, h("a", { href: classHash(c.name), text: c.name }), " ", c.embedded ? h("span", { class: "badge emb", text: "embedded" }) : null,
          h("span", { class: "muted", text: ` · ${fmt(c.objects)} object${c.objects === 1 ? "" : "s"}` })),
        h("table", { class: "schema-table" }, h("thead", {}, h("tr", {}, h("th", { text: "Property" }), h("th", { text: "Type" }), h("th", { text: "Index" }))),
          h("tbody", {}, c.properties.map((p) => h("tr", {}, h("td", { class: "mono", text: p.name }), h("td", {}, h("span", { class: "badge", text: typeLabel(p) })),
            h("td", {}, p.primaryKey ? h("span", { class: "badge pk", text: "primary key" }) : p.indexed ? h("span", { class: "badge idx", text: "indexed" }) : "")))),
          c.linkedFrom.length ? h("tfoot", {}, h("tr", {}, h("td", { colspan: "3", class: "muted", text: `Linked from ${c.linkedFrom.map((l) => `${l.class}.${l.property}`).join(", ")}` }))) : null)));
      main.replaceChildren(h("h1", { text: "Schema" }),
        h("p", { class: "muted", text: `Schema version ${s.schemaVersion === null ? "none" : s.schemaVersion} · ${s.classes.length} classes. Arrows are links (dashed: lists, sets and dictionaries of links).` }),
        h("div", { class: "diagram", id: "diagram" }, diagram(s)),
        h("h2", { text: "Model code" }), tabs, h("div", { class: "code" }, copy, code),
        h("h2", { text: "Classes and properties" }), ...tables);
      load(state.model);
    }

    // The classes as boxes in columns (a class right of the classes linking to it), links as arrows.
    function diagram(s) {
      const NS = "http://www.w3.org/2000/svg";
      const svg = (tag, attrs, ...kids) => { const el = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v); for (const k of kids) el.append(k); return el; };
      const classes = s.classes;
      const byName = new Map(classes.map((c) => [c.name, c]));
      const level = new Map(classes.map((c) => [c.name, 0]));
      for (let pass = 0; pass < classes.length; pass++) {
        let changed = false;
        for (const c of classes) for (const p of c.properties) {
          if (p.type === "object" && byName.has(p.objectType) && p.objectType !== c.name && level.get(p.objectType) <= level.get(c.name) && level.get(c.name) < classes.length) {
            level.set(p.objectType, level.get(c.name) + 1); changed = true;
          }
        }
        if (!changed) break;
      }
      const W = 230, ROW = 18, HEAD = 26, GAPX = 90, GAPY = 26, PAD = 20;
      const columns = [];
      for (const c of classes) { const l = Math.min(level.get(c.name), 12); (columns[l] = columns[l] || []).push(c); }
      const place = new Map();
      let height = 0;
      columns.forEach((col, x) => {
        let y = PAD;
        for (const c of col || []) {
          const hgt = HEAD + Math.max(1, c.properties.length) * ROW + 8;
          place.set(c.name, { x: PAD + x * (W + GAPX), y, h: hgt });
          y += hgt + GAPY;
        }
        height = Math.max(height, y);
      });
      const width = PAD * 2 + columns.length * (W + GAPX) - GAPX;
      const root = svg("svg", { width: String(Math.max(width, 300)), height: String(Math.max(height, 120)), viewBox: `0 0 ${Math.max(width, 300)} ${Math.max(height, 120)}`, role: "img",
        "aria-label": `Diagram of ${classes.length} classes and their links` });
      const defs = svg("defs", {}, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" },
        svg("path", { d: "M0 0L10 5L0 10z", class: "arrow" })));
      root.append(defs);
      const edges = svg("g", {});
      root.append(edges);
      for (const c of classes) {
        const at = place.get(c.name);
        const g = svg("a", { href: classHash(c.name) });
        g.append(svg("title", {}, `${c.name}: ${fmt(c.objects)} objects`));
        g.append(svg("rect", { x: at.x, y: at.y, width: W, height: at.h, rx: "7", class: c.embedded ? "box embedded" : "box" }));
        g.append(svg("path", { d: `M${at.x} ${at.y + 7}a7 7 0 0 1 7 -7h${W - 14}a7 7 0 0 1 7 7v${HEAD - 7}h-${W}z`, class: "title" }));
        const title = svg("text", { x: at.x + 10, y: at.y + 18, class: "title-text" });
        title.textContent = c.name + (c.embedded ? " (embedded)" : "");
        g.append(title);
        c.properties.forEach((p, i) => {
          const y = at.y + HEAD + 14 + i * ROW;
          const name = svg("text", { x: at.x + 10, y, class: p.primaryKey ? "prop pk" : "prop" }); name.textContent = p.name;
          const type = svg("text", { x: at.x + W - 10, y, class: "ptype", "text-anchor": "end" });
          type.textContent = typeLabel(p) + (p.primaryKey ? " · PK" : p.indexed ? " · indexed" : "");
          g.append(name, type);
          if (p.type === "object" && place.has(p.objectType)) {
            const to = place.get(p.objectType);
            const x1 = at.x + W, y1 = y - 4;
            let d;
            if (p.objectType === c.name) d = `M${x1} ${y1}c40 0 40 ${-(y1 - at.y) - 12} -${W / 2} ${-(y1 - at.y) - 12}`;
            else if (to.x > at.x) { const x2 = to.x, y2 = to.y + 13; d = `M${x1} ${y1}C${x1 + GAPX / 2} ${y1} ${x2 - GAPX / 2} ${y2} ${x2} ${y2}`; }
            else { const x2 = to.x + W, y2 = to.y + 13; d = `M${x1} ${y1}C${x1 + 60} ${y1} ${x2 + 60} ${y2} ${x2} ${y2}`; }
            edges.append(svg("path", { d, class: p.collection === "single" ? "edge" : "edge many", "marker-end": "url(#arrow)" }));
          }
        });
        root.append(g);
      }
      return root;
    }

    start();

    """#
}
