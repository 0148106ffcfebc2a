// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import Logging
import PredicateLanguage

/// A swift-log handler that writes each message as one line of JSON: `time` (ISO 8601, UTC, with
/// milliseconds), `level`, `label`, `message`, and every metadata value as a member of its own
/// (the handler's metadata, then the message's). `query serve --log-format json` bootstraps it;
/// a log collector reads the lines one by one.
///
/// ```swift
/// LoggingSystem.bootstrap { label in JSONLinesLogHandler(label: label) }
/// Logger(label: "query.serve").info("request", metadata: ["status": "200"])
/// // {"label":"query.serve","level":"info","message":"request","status":"200","time":"2026-11-25T20:31:07.114Z"}
/// ```
public struct JSONLinesLogHandler: LogHandler {
    /// The logger's label.
    public let label: String
    /// The least severe level written.
    public var logLevel: Logger.Level = .info
    /// Metadata written with every message of this handler.
    public var metadata: Logger.Metadata = [:]
    private let write: @Sendable (String) -> Void

    /// A handler writing to standard error, or to `write` (one call per line, without its line
    /// feed).
    public init(label: String, write: (@Sendable (String) -> Void)? = nil) {
        self.label = label
        self.write = write ?? { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// Metadata of this handler by key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one message as a line of JSON.
    public func log(event: LogEvent) {
        var members: [String: JSONValue] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            members[key] = Self.json(value)
        }
        members["time"] = .string(Self.timestamp(Date()))
        members["level"] = .string(event.level.rawValue)
        members["label"] = .string(label)
        members["message"] = .string(event.message.description)
        // Keys in order, so that lines read alike from one request to the next.
        var line: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line += JSONValue.string(key).jsonBytes()
            line.append(UInt8(ascii: ":"))
            line += members[key, default: .null].jsonBytes()
        }
        line.append(UInt8(ascii: "}"))
        write(String(decoding: line, as: UTF8.self))
    }

    /// A metadata value as JSON: strings and string-convertibles as strings, lists as arrays,
    /// dictionaries as objects.
    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let members): .object(members.mapValues(json))
        }
    }

    /// ISO 8601 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        // Written by hand: Foundation's ISO 8601 format style costs tens of microseconds a call
        // on Linux, and a server writes one line a request.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = ""
        text.reserveCapacity(24)
        func append(_ value: Int32, digits: Int) {
            let decimal = String(value)
            text += String(repeating: "0", count: max(0, digits - decimal.count)) + decimal
        }
        append(parts.tm_year + 1900, digits: 4)
        text += "-"
        append(parts.tm_mon + 1, digits: 2)
        text += "-"
        append(parts.tm_mday, digits: 2)
        text += "T"
        append(parts.tm_hour, digits: 2)
        text += ":"
        append(parts.tm_min, digits: 2)
        text += ":"
        append(parts.tm_sec, digits: 2)
        text += "."
        append(Int32(milliseconds % 1000), digits: 3)
        return text + "Z"
    }
}
#endif
