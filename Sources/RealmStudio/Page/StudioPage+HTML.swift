/// The page's HTML shell and icon. Everything visible is built by the script (`app.js`); the
/// shell holds the landmarks, the dialogs and the CSRF token (`{{CSRF}}`, filled per server).
enum StudioPage {
  static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="csrf-token" content="{{CSRF}}">
    <title>realmctl studio</title>
    <link rel="icon" href="/icon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/app.css">
    <script src="/app.js" defer></script>
    </head>
    <body>
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <div class="brand"><img src="/icon.svg" alt="" width="22" height="22"><span>realmctl <b>studio</b></span></div>
      <nav id="files" class="files" aria-label="Files"></nav>
      <div id="status" class="status" role="status" aria-live="polite"></div>
    </header>
    <div class="layout">
      <nav id="sidebar" class="sidebar" aria-label="File, schema and classes"></nav>
      <main id="main" class="main" tabindex="-1"><p class="muted">Loading…</p></main>
      <aside id="inspector" class="inspector" aria-label="Object" hidden></aside>
    </div>
    <div id="popover" class="popover" role="dialog" aria-label="Value" hidden></div>
    <dialog id="dialog" aria-labelledby="dialog-title"></dialog>
    <div id="toast" class="toast" role="alert" hidden></div>
    </body>
    </html>

    """#

  static let icon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#39477f"/><path d="M8 22V10h6.5a4 4 0 0 1 0 8H8m6.5 0L20 22" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/><circle cx="24" cy="11" r="3" fill="#f7b267"/></svg>

    """#
}
