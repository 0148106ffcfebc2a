// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation

/// The query console's page, assembled from its files in `Console/Web` (embedded into the binary
/// at build time by the EmbedFilesPlugin, as `EmbeddedFiles`): `console.html` with its style sheet
/// (`console.css`) and scripts (`console-links.js`, `console-administration.js`,
/// `console-telemetry.js`, `console-subscriptions.js`, `console-acting.js`, then `console.js`) inlined, and the server's settings as attributes of
/// `<body>`. Opened on its own, `console.html` loads the files beside it instead.
///
/// ```swift
/// let html = ConsolePage.render(settings: "data-container=\"iCloud.example\"")
/// ```
enum ConsolePage {
    /// The style sheet's text, exactly as it goes between `<style>` and `</style>`.
    static let css = EmbeddedFiles.consoleCss
    /// The scripts, in the page's order: each file's name and its text, exactly as it goes
    /// between `<script>` and `</script>`.
    static let scripts: [(file: String, text: String)] = [
        ("console-links.js", EmbeddedFiles.consoleLinksJs),
        ("console-administration.js", EmbeddedFiles.consoleAdministrationJs),
        ("console-telemetry.js", EmbeddedFiles.consoleTelemetryJs),
        ("console-subscriptions.js", EmbeddedFiles.consoleSubscriptionsJs),
        ("console-acting.js", EmbeddedFiles.consoleActingJs),
        ("console.js", EmbeddedFiles.consoleJs),
    ]

    /// The whole document: `settings` are attributes of `<body>` (already escaped).
    static func render(settings: String) -> String {
        var html = EmbeddedFiles.consoleHtml
            .replacingOccurrences(of: #"<link rel="stylesheet" href="console.css">"#, with: "<style>\(css)</style>")
            .replacingOccurrences(of: "<body data-console-settings>", with: "<body \(settings)>")
        for script in scripts {
            html = html.replacingOccurrences(of: #"<script src=""# + script.file + #""></script>"#, with: "<script>\(script.text)</script>")
        }
        return html
    }
}
#endif
