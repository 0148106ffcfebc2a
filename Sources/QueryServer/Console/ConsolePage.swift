/// The query console's markup: the page's body, with the places ``ConsoleDocument`` fills in
/// (the style, the script, and the server's settings as attributes of `<body>`).
///
/// ```swift
/// let html = ConsolePage.render(settings: "data-container=\"iCloud.example\"", style: ConsoleStyle.css, script: ConsoleScript.javaScript)
/// ```
enum ConsolePage {
    /// The whole document: `settings` are attributes of `<body>` (already escaped), `style` and
    /// `script` the texts of the page's only `<style>` and `<script>` elements.
    static func render(settings: String, style: String, script: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <link rel="icon" href="data:,">
        <title>Query console</title>
        <style>\(style)</style>
        </head>
        <body \(settings)>
        \(body)
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    /// Everything between `<body>` and the script.
    static let body = #"""
<header>
  <h1>Query console</h1>
  <label>Container <input id="container" spellcheck="false" autocomplete="off"></label>
  <label>Environment <select id="environment"><option>production</option><option>development</option></select></label>
  <label>Database <select id="database"><option>public</option><option>private</option></select></label>
  <label id="token-label" class="hidden">API token <input id="api-token" type="password" autocomplete="off" placeholder="ckAPIToken"></label>
  <span class="spacer"></span>
  <span class="rules" id="rules-info"></span>
</header>
<main>
  <nav aria-label="Record types">
    <h2>Record types</h2>
    <div id="record-types"><p class="empty">Loading…</p></div>
  </nav>
  <div id="workspace">
    <section class="card" aria-label="Query">
      <div class="query-head">
        <h2>Predicate</h2>
        <span class="hint">NSPredicate format, checked as you type · Enter runs · Shift+Enter for a new line · empty: every record</span>
      </div>
      <div class="editor">
        <pre id="highlight" aria-hidden="true"> </pre>
        <textarea id="predicate" rows="1" spellcheck="false" autocomplete="off" autocapitalize="off"
          aria-label="Predicate" placeholder="population > 100000 AND name BEGINSWITH[c] &quot;saint&quot;"></textarea>
      </div>
      <div id="check" role="status"></div>
      <div class="controls">
        <span class="label">Sort by</span>
        <span id="sorts"></span>
        <button id="add-sort" class="plain" type="button">+ Add sort</button>
        <span class="spacer"></span>
        <label class="label">Page size <select id="page-size" class="plain">
          <option value="10">10</option><option value="20" selected>20</option><option value="50">50</option><option value="100">100</option><option value="200">200</option>
        </select></label>
        <button id="run" class="primary" type="button">Run</button>
      </div>
    </section>
    <div id="request-error" class="card hidden" role="alert"></div>
    <div class="tabs" role="tablist">
      <button type="button" role="tab" data-tab="results" class="selected">Results</button>
      <button type="button" role="tab" data-tab="plan">Plan</button>
      <button type="button" role="tab" data-tab="map">Map</button>
      <button type="button" role="tab" data-tab="schema">Schema</button>
      <span class="summary" id="summary"></span>
    </div>
    <section class="panel" id="results-panel" data-panel="results">
      <div id="results"><p class="empty-state">Pick a record type.</p></div>
    </section>
    <section class="panel hidden" data-panel="plan">
      <div id="plan-view"><p class="empty-state">Run a query to see its plan.</p></div>
    </section>
    <section class="panel hidden" data-panel="map">
      <div id="map-view">
        <div id="map-caption"></div>
        <svg id="map-svg" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Map of the records on this page"></svg>
      </div>
    </section>
    <section class="panel hidden" data-panel="schema">
      <div id="schema-view"></div>
    </section>
    <div class="pager" id="pager">
      <button id="previous" class="plain" type="button" disabled>◀ Previous</button>
      <button id="next" class="plain" type="button" disabled>Next ▶</button>
      <span id="page-info"></span>
    </div>
  </div>
</main>
"""#
}
