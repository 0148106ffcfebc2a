import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Test-only: a Server-Sent Events client on a plain socket (URLSession on Linux does not stream
/// a body as it arrives). Sends one `GET`, reads the chunked answer on a thread of its own, and
/// hands out its events as they come.
public final class EventStreamClient: @unchecked Sendable {
    /// One event: its `id`, `event` and `data` fields.
    public struct Event: Equatable, Sendable {
        public var id: String?
        public var name: String
        public var data: String
    }

    private let socket: Int32
    private let lock = NSLock()
    private var events: [Event] = []
    private var taken = 0
    private var ended = false
    public private(set) var statusLine = ""

    /// Connects and sends the request.
    public init(port: Int, path: String, headers: [String: String] = [:]) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["connect": errno]) }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.utf8CString.withUnsafeBufferPointer { send(socket, $0.baseAddress, $0.count - 1, 0) }
        Thread { [self] in read() }.start()
    }

    deinit { close() }

    public func close() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Reads the answer: the head, then chunks, each holding whole events.
    private func read() {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var bodyStarted = false
        var body = [UInt8]()
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            if count <= 0 { break }
            buffer += chunk[0..<count]
            if !bodyStarted, let end = Self.find([13, 10, 13, 10], in: buffer) {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                lock.withLock { statusLine = String(head.split(separator: "\r\n").first ?? "") }
                buffer.removeFirst(end + 4)
                bodyStarted = true
            }
            guard bodyStarted else { continue }
            // De-chunk: size line, bytes, CRLF.
            while let lineEnd = Self.find([13, 10], in: buffer) {
                let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText, radix: 16) else { break }
                guard buffer.count >= lineEnd + 2 + size + 2 else { break }
                body += buffer[(lineEnd + 2)..<(lineEnd + 2 + size)]
                buffer.removeFirst(lineEnd + 2 + size + 2)
                if size == 0 { break }
            }
            parseEvents(&body)
        }
        lock.withLock { ended = true }
    }

    /// Takes the complete events (ended by a blank line) out of the body read so far.
    private func parseEvents(_ body: inout [UInt8]) {
        while let end = Self.find([10, 10], in: body) {
            let text = String(decoding: body[0..<end], as: UTF8.self)
            body.removeFirst(end + 2)
            var event = Event(id: nil, name: "message", data: "")
            var hasField = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix(":") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let value = line[line.index(after: colon)...].drop { $0 == " " }
                switch line[..<colon] {
                case "id": event.id = String(value); hasField = true
                case "event": event.name = String(value); hasField = true
                case "data": event.data = String(value); hasField = true
                default: break
                }
            }
            if hasField, !(event.name == "message" && event.data.isEmpty) { lock.withLock { events.append(event) } }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// The next `count` events, waiting for them (the suite's time limit bounds the wait).
    public func next(_ count: Int) async throws -> [Event] {
        while true {
            let (found, isOver): ([Event]?, Bool) = lock.withLock {
                if events.count - taken >= count {
                    defer { taken += count }
                    return (Array(events[taken..<(taken + count)]), false)
                }
                return (nil, ended)
            }
            if let found { return found }
            if isOver { throw CocoaError(.fileReadUnknown, userInfo: ["events": lock.withLock { events.map(\.data) }]) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until the answer's head arrived (the server registered the stream by then).
    public func waitForHead() async throws {
        while lock.withLock({ statusLine.isEmpty && !ended }) { try await Task.sleep(for: .milliseconds(5)) }
    }
}
