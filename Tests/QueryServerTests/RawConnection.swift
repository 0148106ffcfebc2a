import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP client that sends exactly the bytes a test gives it, when it gives them: a client that
/// sends half its headers, trickles its body or never sends it, as no HTTP library would. Its
/// calls block, so tests run them on a thread of their own (``onThread(_:)``), never on the
/// cooperative pool the in-process server needs.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// What a read saw: the bytes, and whether the server closed the connection.
    struct Reading {
        var bytes: [UInt8] = []
        var closed = false
        var text: String { String(decoding: bytes, as: UTF8.self) }
        /// The status code of the HTTP response read, or nil.
        var status: Int? {
            // The status line only: a large body is not decoded to find it.
            let statusLine = bytes.prefix(64).split(separator: UInt8(ascii: "\r"), maxSplits: 1).first ?? []
            let parts = String(decoding: statusLine, as: UTF8.self).split(separator: " ", maxSplits: 2)
            return parts.count >= 2 && parts[0].hasPrefix("HTTP/") ? Int(parts[1]) : nil
        }
        /// The body of the HTTP response read.
        var body: String {
            guard let range = text.range(of: "\r\n\r\n") else { return "" }
            return String(text[range.upperBound...])
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to a loopback port, from another loopback address (`127.0.0.2`) when given, so
    /// that one test can be several clients; `receiveBufferSize` caps the socket's receive buffer
    /// (a client that holds little of what the server sends before it reads).
    init(port: Int, from source: String? = nil, receiveBufferSize: Int32? = nil) throws {
        descriptor = try Self.connect(port: port, from: source, receiveBufferSize: receiveBufferSize)
    }

    /// A connected socket, or a failure with nothing left open. (The descriptor is the
    /// connection's only once connected: a failed initializer of a fully initialized object
    /// still runs `deinit`, which would close it a second time, perhaps as another socket's
    /// number by then.)
    private static func connect(port: Int, from source: String?, receiveBufferSize: Int32?) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                Glibc.close(descriptor)
                throw Failure(description: "bind(\(source)) failed: \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(descriptor)
            throw Failure(description: "connect() failed: \(errno)")
        }
        return descriptor
    }

    deinit { Glibc.close(descriptor) }

    /// Ends the connection both ways now (the descriptor is released with the connection).
    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Sends bytes; false when the server closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Sends a text.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the server closes the connection, a whole HTTP response has arrived (when
    /// `untilResponse`), or `timeout` seconds pass.
    func read(timeout: Double, untilResponse: Bool = true) -> Reading {
        receive(timeout: timeout) { reading in untilResponse && Self.responseLength(reading.bytes).map { reading.bytes.count >= $0 } == true }
    }

    /// Reads until the head of an HTTP response has arrived (its status line and headers), the
    /// server closes the connection, or `timeout` seconds pass: for responses that stream on, such
    /// as event streams, whose body never ends.
    func readHead(timeout: Double) -> Reading {
        receive(timeout: timeout) { reading in reading.bytes.firstRange(of: Array("\r\n\r\n".utf8)) != nil }
    }

    /// Reads one whole HTTP response as ``read(timeout:untilResponse:)`` does, a large one
    /// without looking at the bytes of its body more than once.
    func readLargeResponse(timeout: Double) -> Reading {
        var total: Int?
        return receive(timeout: timeout) { reading in
            if total == nil { total = Self.responseLength(reading.bytes) }
            return total.map { reading.bytes.count >= $0 } ?? false
        }
    }

    /// Reads until `isDone` says so of what arrived, the server closes the connection, or
    /// `timeout` seconds pass.
    private func receive(timeout: Double, isDone: (Reading) -> Bool) -> Reading {
        var reading = Reading()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                reading.closed = true
                return reading
            }
            reading.bytes += buffer[0..<count]
            if isDone(reading) { return reading }
        }
        return reading
    }

    /// The length of the HTTP response that begins `bytes` (its head and `Content-Length` bytes
    /// of body), once its head has arrived; nil before, or when the head gives no length.
    private static func responseLength(_ bytes: [UInt8]) -> Int? {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return nil }
        return end.upperBound + length
    }

    /// Runs blocking work on a thread of its own.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
