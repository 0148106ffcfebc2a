import ArgumentParser
import Foundation
import PredicateLanguage
import RecordStore

/// How `query import --progress` reports progress on standard error.
///
/// ```
/// query import --type City --id geonameid cities1000.jsonl.gz --progress jsonl
/// {"bytesRead":65536,"committed":5000,"lastRecordName":"1277333","totalBytes":9215232}
/// ```
enum ImportProgressFormat: String, ExpressibleByArgument, CaseIterable {
    /// A progress bar when standard error is a terminal, nothing otherwise.
    case auto
    /// One JSON object per committed batch, written right after its transaction commits:
    /// `committed` (records committed so far), `lastRecordName` (the last record of the
    /// batch), `bytesRead` and `totalBytes` (of the file). A process killed after a line
    /// was written keeps at least that many records.
    case jsonl
    /// Nothing.
    case none

    /// The line reported for a committed batch, without its newline.
    ///
    /// ```swift
    /// ImportProgressFormat.jsonLine(progress)   // {"bytesRead":…,"committed":5000,"lastRecordName":"1277333","totalBytes":…}
    /// ```
    static func jsonLine(_ progress: RecordImporter.Progress) -> String {
        var fields: [String: Value] = [
            "committed": .int(Int64(progress.recordCount)),
            "bytesRead": .int(progress.bytesRead),
            "totalBytes": .int(progress.totalBytes),
        ]
        if let name = progress.lastRecordName { fields["lastRecordName"] = .string(name) }
        return Value.jsonText(of: fields)
    }

    /// Writes a committed batch's line to standard error at once (unbuffered).
    static func reportCommitted(_ progress: RecordImporter.Progress) {
        FileHandle.standardError.write(Data((jsonLine(progress) + "\n").utf8))
    }
}
