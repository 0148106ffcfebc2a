// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation

/// The query console's page, assembled from its files in `Console/Web` (embedded into the binary
/// at build time by the EmbedFilesPlugin, as `EmbeddedFiles`): `console.html` with its style sheet
/// (`console.css`) and script (`console.js`) inlined, and the server's settings as attributes of
/// `<body>`. Opened on its own, `console.html` loads the two files beside it instead.
///
/// ```swift
/// let html = ConsolePage.render(settings: "data-container=\"iCloud.example\"")
/// ```
enum ConsolePage {
    /// The style sheet's text, exactly as it goes between `<style>` and `</style>`.
    static let css = EmbeddedFiles.consoleCss
    /// The script's text, exactly as it goes between `<script>` and `</script>`.
    static let javaScript = EmbeddedFiles.consoleJs

    /// The whole document: `settings` are attributes of `<body>` (already escaped).
    static func render(settings: String) -> String {
        EmbeddedFiles.consoleHtml
            .replacingOccurrences(of: #"<link rel="stylesheet" href="console.css">"#, with: "<style>\(css)</style>")
            .replacingOccurrences(of: "<body data-console-settings>", with: "<body \(settings)>")
            .replacingOccurrences(of: #"<script src="console.js"></script>"#, with: "<script>\(javaScript)</script>")
    }
}
#endif
